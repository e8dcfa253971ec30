// `npm run bench:stream-latency` (issue #27; not a test, prints figures): how long a token the
// model has written takes to reach the page. The app (PGlite, the language and ask lanes, its real
// HTTP listener) uses the `openai` adapter against a local streaming chat server; for each run the
// server notes when it writes its first content token, and an SSE client of the page's events
// endpoint notes when the first `token` event arrives, over a real socket. Insights (a summary) and
// Ask (a question), BENCH_RUNS each (default 20): p50 / p95 / max. Target: ≤ 100 ms.
//
// Both ends run in this process, so they read one clock (performance.now()). Nothing on the way
// buffers or throttles: each piece is published as the adapter parses it (streamed-writer.ts),
// the events endpoints write each as an SSE event at once (no compression on event streams,
// X-Accel-Buffering: no for a proxy in front).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { getRequestListener } from '@hono/node-server';
import type { Segment } from '../common/segments';
import { askAnswer } from '../server/test/ask-replies';
import { startChatServer, type ChatReply } from '../server/test/chat-server';
import { newTranscript } from '../server/test/factories';
import { testApp } from '../server/test/harness';
import { insightAnswer } from '../server/test/insight-replies';
import { signedInUser } from '../server/test/users';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
/** Characters per streamed chunk, and milliseconds between chunks (a model writing). */
const PIECE = 8;
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 10);

const chat = await startChatServer();
const h = await testApp({}, { LLM_BASE_URL: `${chat.url}/v1`, LLM_MODEL: 'fake-model' });
h.deps.services.startLanguageWorker();
const server = http.createServer((req, res) => void getRequestListener(h.app.fetch)(req, res));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/self-api/v1`;

const segments: Segment[] = Array.from({ length: 40 }, (_, i) => ({
  start: i * 15,
  end: i * 15 + 14,
  text: i === 7 ? 'The launch moves to the second week of October.' : `We discussed item ${i} of the plan.`,
}));
const signedIn = await signedInUser(h.db, { rankName: 'UNLIMITED' });
const { user } = signedIn;
// Same-site calls, as the page makes them.
const headers = { ...signedIn.headers, origin: new URL(base).origin };
const t = await newTranscript(h.db, user.id, { status: 'done', segments, durationSec: 600 });

/**
 * The reply of one run: the role chunk, then (once the page listens: `gate`) the answer in pieces,
 * the moment of the first content piece kept in `written`.
 */
function timedReply(
  answer: (req: Parameters<ChatReply>[0]) => string,
  gate: Promise<void>,
  written: { at: number },
): ChatReply {
  return async (req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (delta: object, finish: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    send({ role: 'assistant', content: '' });
    await gate;
    const text = answer(req);
    for (let i = 0; i < text.length; i += PIECE) {
      if (i > 0) await new Promise((r) => setTimeout(r, GAP_MS));
      if (res.destroyed) return;
      if (i === 0) written.at = performance.now();
      send({ content: text.slice(i, i + PIECE) });
    }
    send({}, 'stop');
    res.end('data: [DONE]\n\n');
  };
}

async function post(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
}

/**
 * Reads an events stream over a socket until it ends: calls `listening` at its first bytes, and
 * answers when the first `token` event's bytes arrived.
 */
function listen(path: string, listening: () => void): Promise<number> {
  return new Promise((resolve, reject) => {
    let firstToken = 0;
    let body = '';
    const req = http.get(`${base}${path}`, { headers }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const now = performance.now();
        if (!body) listening();
        body += chunk;
        if (!firstToken && body.includes('event: token')) firstToken = now;
      });
      res.on('end', () =>
        firstToken ? resolve(firstToken) : reject(new Error(`no token event: ${body.slice(0, 300)}`)),
      );
    });
    req.on('error', reject);
  });
}

async function run(kind: 'insights' | 'ask'): Promise<number> {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const written = { at: 0 };
  chat.reply(timedReply(kind === 'insights' ? insightAnswer : askAnswer, gate, written));
  let arrived: Promise<number>;
  // Each stream ends by itself once nothing is on its way (the output or the answer stored).
  if (kind === 'insights') {
    await post(`/transcripts/${t.id}/insights`, { kind: 'summary', language: 'en' });
    arrived = listen(`/transcripts/${t.id}/insights/events`, open);
  } else {
    await post(`/transcripts/${t.id}/ask`, { question: 'When is the launch?' });
    arrived = listen(`/transcripts/${t.id}/conversation/events`, open);
  }
  const at = await arrived;
  return at - written.at;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

console.log(
  `stream latency (model's first token → first token event at the page's SSE client): ${RUNS} runs each, ` +
    `chunks of ${PIECE} characters ${GAP_MS} ms apart, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
);
// The tail is where this process's event loop was held (PGlite runs in it; other processes take
// the cores): its delay is printed beside the figures.
for (const kind of ['insights', 'ask'] as const) {
  await run(kind); // warm
  const ms: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  for (let i = 0; i < RUNS; i++) ms.push(await run(kind));
  loop.disable();
  console.log(
    `  ${kind.padEnd(8)} p50 ${pct(ms, 50).toFixed(1)} ms, p95 ${pct(ms, 95).toFixed(1)} ms, ` +
      `max ${Math.max(...ms).toFixed(1)} ms (target ≤ 100 ms); event loop delay meanwhile ` +
      `p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms, load ${os.loadavg()[0]!.toFixed(1)}`,
  );
}
server.closeAllConnections();
server.close();
await h.close();
await chat.close();
