// A local server speaking OpenAI's chat completions protocol (POST /v1/chat/completions, streamed
// as server-sent events when `stream` is true), for the language model's `openai` adapter and the
// features on it. Each request is recorded; the test sets how the next ones are answered.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  path: string;
  auth: string | undefined;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    stream?: boolean;
    response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: unknown } };
    max_tokens?: number;
    stream_options?: unknown;
    [key: string]: unknown;
  };
}

export type ChatReply = (req: ChatRequest, res: ServerResponse) => void | Promise<void>;

export interface ChatServer {
  url: string;
  requests: ChatRequest[];
  /** Answers in order; the last one repeats. */
  reply(...replies: ChatReply[]): void;
  close(): Promise<void>;
}

/** Streams `pieces` as chat.completion.chunk events (with usage and [DONE]), `gapMs` apart. */
export function streamed(
  pieces: string[],
  opts: { gapMs?: number; finish?: string; gate?: Promise<void>; gateAt?: number } = {},
): ChatReply {
  return async (req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (obj: unknown) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
    send({
      id: 'c1',
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: { role: 'assistant', content: '' } }],
    });
    // A test holds the content back until its listener is in place (nothing written is missed),
    // or from piece `gateAt` on (a listener that joins when part is written).
    for (const [i, p] of pieces.entries()) {
      if (i === (opts.gateAt ?? 0)) await opts.gate;
      if (opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs));
      if (res.destroyed) return;
      send({
        id: 'c1',
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { content: p }, finish_reason: null }],
      });
    }
    send({
      id: 'c1',
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: {}, finish_reason: opts.finish ?? 'stop' }],
    });
    if (req.body.stream_options)
      send({
        id: 'c1',
        object: 'chat.completion.chunk',
        choices: [],
        usage: { prompt_tokens: 42, completion_tokens: pieces.length },
      });
    res.end('data: [DONE]\n\n');
  };
}

/** Answers with an HTTP error in OpenAI's error shape. */
export function failing(status: number, message: string, headers: Record<string, string> = {}): ChatReply {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
  };
}

/** Never answers (the connection stays open until the client gives up). */
export const silent: ChatReply = () => undefined;

export async function startChatServer(): Promise<ChatServer> {
  const requests: ChatRequest[] = [];
  let replies: ChatReply[] = [streamed(['Hello'])];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: ChatRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest['body'];
      } catch {
        res.writeHead(400).end('{"error":{"message":"bad json"}}');
        return;
      }
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const entry = { path: req.url, auth: req.headers.authorization, body };
      requests.push(entry);
      const reply = replies.length > 1 ? replies.shift()! : replies[0]!;
      open.add(res);
      res.on('close', () => open.delete(res));
      void reply(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(...next) {
      replies = next;
    },
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Reads a server-sent-events answer to its end and returns its text; `release` is called once
 * the body holds `after` (a gate a test opens when its stream listens).
 */
export async function readStream(res: Response, after: string, release: () => void): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let body = '';
  for (;;) {
    if (body.includes(after)) release();
    const { value, done } = await reader.read();
    if (done) return body;
    body += decoder.decode(value, { stream: true });
  }
}
