// The `openai` adapter: any server speaking OpenAI's chat completions API (OpenAI, Groq, Ollama,
// vLLM, llama.cpp's server, LM Studio) at LLM_BASE_URL. Answers are streamed (server-sent events)
// and handed on piece by piece. Structured output asks for `json_schema` (strict); an endpoint that
// refuses it is asked for JSON mode, then for plain text with the schema in the prompt, and what it
// says is validated either way, with one repair round. 429 and 5xx are retried with back-off
// (Retry-After honoured) as long as nothing was streamed yet.
//
// Requests go through the guarded outbound fetch (modules/outbound/safe-fetch.ts). The endpoint is
// the operator's own setting, not a user's, so it may be a private address (an Ollama next door):
// the address check is lifted for this one URL only, and redirects are refused, so the answer can
// only come from where the operator pointed (decision record "Language model").

import { endpointUrl } from '../engine/openai';
import { OutboundError } from '../outbound/destination';
import { safeFetch, type OutboundResponse } from '../outbound/safe-fetch';
import type { PrivateAllowance } from '../outbound/address';
import { checkJson, repairMessages, toOpenAiSchema, type JsonSchema } from './json-schema';
import {
  LanguageModelError,
  type ChatMessage,
  type CompleteRequest,
  type CompleteResult,
  type LanguageModel,
} from './types';

export interface OpenAiModelOptions {
  /** e.g. `https://api.openai.com/v1`, `http://ollama:11434`, `https://api.groq.com/openai/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** The model's context window in tokens (LLM_CONTEXT_TOKENS); default 32,768. */
  contextTokens?: number;
  /** No answer (headers) for this long fails the attempt; default 120 s (a long prompt takes time). */
  timeoutMs?: number;
  /** No streamed byte for this long fails the attempt; default 60 s. */
  idleTimeoutMs?: number;
  /** Tries for a 429 / 5xx / unreachable endpoint, the first included; default 4. */
  attempts?: number;
  /** First back-off, doubled each time (with jitter) unless Retry-After says more; default 1 s. */
  backoffMs?: number;
  /** A Retry-After longer than this is not waited for (the error says when to retry); default 60 s. */
  maxRetryAfterMs?: number;
  /**
   * Private addresses for this endpoint. No default: the wiring says it (createLanguageModel
   * allows them because LLM_BASE_URL is the operator's own setting; redirects stay refused).
   */
  allowPrivate: PrivateAllowance;
  /** Test seam: how long to wait before a retry. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

type StructuredMode = 'json_schema' | 'json_object' | 'prompt';

interface Attempt {
  text: string;
  finish: string | null;
  usage: CompleteResult['usage'];
}

const DEFAULT_MAX_TOKENS = 1024;
const ERROR_DETAIL = 300;

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(canceled());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(canceled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

const canceled = () => new LanguageModelError('canceled', 'the completion was canceled');

/** Retry-After as milliseconds (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const v = Array.isArray(header) ? header[0] : header;
  if (!v) return null;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The instruction that makes a model without structured output answer in the schema's shape. */
function schemaInstruction(schema: JsonSchema): string {
  return (
    'Answer with one JSON value only (no prose, no code fence) that matches this JSON Schema:\n' +
    JSON.stringify(toOpenAiSchema(schema))
  );
}

export function createOpenAiModel(options: OpenAiModelOptions): LanguageModel {
  const url = endpointUrl(options.baseUrl, 'chat/completions');
  const timeoutMs = options.timeoutMs ?? 120_000;
  const idleMs = options.idleTimeoutMs ?? 60_000;
  const attempts = Math.max(1, options.attempts ?? 4);
  const backoffMs = options.backoffMs ?? 1000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const sleep = options.sleep ?? defaultSleep;
  const allowPrivate = options.allowPrivate;
  // What this endpoint turned out not to accept, learned from its 400s and kept for later calls.
  let structured: StructuredMode = 'json_schema';
  let usageOption = true;
  let tokensField: 'max_tokens' | 'max_completion_tokens' = 'max_tokens';

  function body(req: CompleteRequest, messages: ChatMessage[], mode: StructuredMode | null): string {
    const payload: Record<string, unknown> = {
      model: options.model,
      messages,
      stream: true,
      temperature: req.temperature ?? 0.2,
      [tokensField]: req.maxTokens ?? DEFAULT_MAX_TOKENS,
    };
    if (usageOption) payload.stream_options = { include_usage: true };
    if (req.schema && mode === 'json_schema')
      payload.response_format = {
        type: 'json_schema',
        json_schema: { name: 'answer', strict: true, schema: toOpenAiSchema(req.schema) },
      };
    else if (req.schema && mode === 'json_object') payload.response_format = { type: 'json_object' };
    return JSON.stringify(payload);
  }

  /** One HTTP exchange (retried on 429/5xx/network); streams into onToken. */
  async function exchange(
    req: CompleteRequest,
    messages: ChatMessage[],
    mode: StructuredMode | null,
    onToken: ((t: string) => void) | undefined,
  ): Promise<Attempt> {
    for (let attempt = 1; ; attempt++) {
      if (req.signal?.aborted) throw canceled();
      let retryDelay: number | null = null;
      let failure: LanguageModelError;
      let streamed = false;
      const relay = onToken
        ? (t: string) => {
            streamed = true;
            onToken(t);
          }
        : undefined;
      try {
        return await once(req, messages, mode, relay);
      } catch (err) {
        if (req.signal?.aborted) throw canceled();
        if (!(err instanceof RetryableFailure)) throw err;
        // Text already handed on cannot be taken back: a retry would repeat it.
        if (streamed) throw err.error;
        failure = err.error;
        retryDelay = err.retryAfterMs;
      }
      if (attempt >= attempts) throw failure;
      const backoff = backoffMs * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5);
      const wait = retryDelay ?? backoff;
      if (wait > maxRetryAfterMs) throw failure;
      await sleep(Math.max(wait, 0), req.signal);
    }
  }

  async function once(
    req: CompleteRequest,
    messages: ChatMessage[],
    mode: StructuredMode | null,
    onToken: ((t: string) => void) | undefined,
  ): Promise<Attempt> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream, application/json',
    };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    // The whole exchange may take long (a long answer streams for minutes); silence may not.
    const idle = new AbortController();
    let idleTimer: NodeJS.Timeout | undefined;
    const armIdle = (ms: number, what: string) => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => idle.abort(new LanguageModelError('timeout', what, true)), ms);
    };
    armIdle(timeoutMs, `${describe(url)} did not answer within ${Math.round(timeoutMs / 1000)} s`);
    const signal = req.signal ? AbortSignal.any([req.signal, idle.signal]) : idle.signal;
    let res: OutboundResponse;
    try {
      res = await safeFetch(url, {
        method: 'POST',
        headers,
        body: body(req, messages, mode),
        allowPrivate,
        maxRedirects: 0,
        timeoutMs: 30 * 60_000,
        maxBytes: 32 * 1024 * 1024,
        signal,
      });
    } catch (err) {
      clearTimeout(idleTimer);
      throw fetchFailure(err, idle.signal, req.signal);
    }
    try {
      if (res.status !== 200) {
        const text = await res.text(64 * 1024).catch(() => '');
        throw statusFailure(res.status, text, res.headers['retry-after']);
      }
      const type = String(res.headers['content-type'] ?? '');
      armIdle(idleMs, `${describe(url)} stopped sending for ${Math.round(idleMs / 1000)} s`);
      if (!type.includes('text/event-stream')) {
        // A server that ignores `stream` answers with one JSON body.
        const raw = await res.text();
        clearTimeout(idleTimer);
        const parsed = parseJsonBody(raw);
        if (parsed.text) onToken?.(parsed.text);
        return parsed;
      }
      return await readStream(res, onToken, () =>
        armIdle(idleMs, `${describe(url)} stopped sending for ${Math.round(idleMs / 1000)} s`),
      );
    } catch (err) {
      throw fetchFailure(err, idle.signal, req.signal);
    } finally {
      clearTimeout(idleTimer);
      res.close();
    }
  }

  async function complete(req: CompleteRequest): Promise<CompleteResult> {
    if (req.signal?.aborted) throw canceled();
    let streamed = false;
    const onToken = req.onToken
      ? (t: string) => {
          streamed = true;
          req.onToken!(t);
        }
      : undefined;
    const run = async (messages: ChatMessage[], forward: boolean): Promise<Attempt> => {
      for (;;) {
        const mode = req.schema ? structured : null;
        const sent = mode === 'prompt' ? withInstruction(messages, req.schema!) : messages;
        try {
          return await exchange(req, sent, mode, forward ? onToken : undefined);
        } catch (err) {
          // A 400 about an optional feature: drop the feature and ask again (remembered).
          if (!(err instanceof RejectedRequest) || streamed)
            throw err instanceof RejectedRequest ? err.error : err;
          const detail = err.detail.toLowerCase();
          if (usageOption && detail.includes('stream_options')) usageOption = false;
          else if (tokensField === 'max_tokens' && detail.includes('max_tokens'))
            tokensField = 'max_completion_tokens';
          else if (mode === 'json_schema' && /response_format|json_schema|schema/.test(detail))
            structured = 'json_object';
          else if (mode === 'json_object' && /response_format|json_object|json/.test(detail))
            structured = 'prompt';
          else throw err.error;
        }
      }
    };
    const first = await run(req.messages, true);
    const usage = { ...first.usage };
    const stopReason = first.finish === 'length' ? 'length' : 'stop';
    if (!req.schema) return { text: first.text, stopReason, usage };

    const checked = checkJson(req.schema, first.text);
    if (checked.ok) return { text: first.text, json: checked.value, stopReason: 'stop', usage };
    const second = await run(repairMessages(req.messages, first.text, checked.problems), false);
    usage.promptTokens = add(usage.promptTokens, second.usage.promptTokens);
    usage.completionTokens = add(usage.completionTokens, second.usage.completionTokens);
    const again = checkJson(req.schema, second.text);
    if (again.ok) return { text: second.text, json: again.value, stopReason: 'stop', usage };
    throw new LanguageModelError(
      'invalid_output',
      `${options.model} did not answer in the required shape, even when asked again (${again.problems.join('; ')})`,
    );
  }

  return {
    kind: 'openai',
    model: options.model,
    contextTokens: options.contextTokens ?? 32_768,
    complete,
  };
}

const add = (a: number | null, b: number | null) => (a === null || b === null ? (a ?? b) : a + b);

function withInstruction(messages: ChatMessage[], schema: JsonSchema): ChatMessage[] {
  const instruction = schemaInstruction(schema);
  const [head, ...rest] = messages;
  if (head?.role === 'system')
    return [{ role: 'system', content: `${head.content}\n\n${instruction}` }, ...rest];
  return [{ role: 'system', content: instruction }, ...messages];
}

/** A failure worth another try (429, 5xx, no answer), with the wait the server asked for. */
class RetryableFailure extends Error {
  constructor(
    readonly error: LanguageModelError,
    readonly retryAfterMs: number | null,
  ) {
    super(error.message);
  }
}

/** A 400-type refusal: maybe of an optional feature (the caller may drop it and ask again). */
class RejectedRequest extends Error {
  constructor(
    readonly error: LanguageModelError,
    readonly detail: string,
  ) {
    super(error.message);
  }
}

function statusFailure(status: number, text: string, retryAfter: string | string[] | undefined): Error {
  const detail = errorDetail(text);
  const suffix = detail ? `: ${detail}` : '';
  if (status === 429)
    return new RetryableFailure(
      new LanguageModelError(
        'rate_limited',
        `the language model endpoint is rate-limiting (HTTP 429)${suffix}`,
        true,
      ),
      retryAfterMs(retryAfter),
    );
  if (status >= 500 || status === 408)
    return new RetryableFailure(
      new LanguageModelError(
        'remote_error',
        `the language model endpoint failed (HTTP ${status})${suffix}`,
        true,
      ),
      retryAfterMs(retryAfter),
    );
  if (status >= 300 && status < 400)
    return new LanguageModelError(
      'unreachable',
      `the language model endpoint redirects (HTTP ${status}), which is not followed: set LLM_BASE_URL to the final address`,
    );
  if (status === 401 || status === 403)
    return new LanguageModelError(
      'remote_rejected',
      `the language model endpoint refused the credentials (HTTP ${status}): check LLM_API_KEY${suffix}`,
    );
  if (status === 404)
    return new LanguageModelError(
      'remote_rejected',
      `the language model endpoint has no such model or path (HTTP 404): check LLM_BASE_URL and LLM_MODEL${suffix}`,
    );
  if (
    status === 413 ||
    /context.length|context window|too many tokens|maximum context|prompt is too long/i.test(detail)
  )
    return new LanguageModelError('context_overflow', `the prompt is too long for the model${suffix}`);
  return new RejectedRequest(
    new LanguageModelError(
      'remote_rejected',
      `the language model endpoint refused the request (HTTP ${status})${suffix}`,
    ),
    detail,
  );
}

function fetchFailure(err: unknown, idle: AbortSignal, outer: AbortSignal | undefined): Error {
  if (outer?.aborted) return canceled();
  if (err instanceof RetryableFailure || err instanceof RejectedRequest) return err;
  if (idle.aborted) return new RetryableFailure(idle.reason as LanguageModelError, null);
  if (err instanceof LanguageModelError) return err;
  if (err instanceof OutboundError) {
    if (err.reason === 'blocked_address' || err.reason === 'bad_url')
      return new LanguageModelError('unreachable', `LLM_BASE_URL cannot be used: ${err.message}`);
    if (err.reason === 'too_many_redirects')
      return new LanguageModelError(
        'unreachable',
        'the language model endpoint redirected elsewhere; set LLM_BASE_URL to the final address',
      );
    if (err.reason === 'timeout')
      return new RetryableFailure(
        new LanguageModelError('timeout', 'the language model endpoint took too long', true),
        null,
      );
    if (err.reason === 'too_large')
      return new LanguageModelError('remote_error', 'the language model endpoint sent too large an answer');
    return new RetryableFailure(
      new LanguageModelError('unreachable', `cannot reach the language model endpoint: ${err.message}`, true),
      null,
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}

interface StreamChunk {
  choices?: {
    delta?: { content?: string | null };
    message?: { content?: string | null };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string } | string;
}

function usageOf(u: StreamChunk['usage']): CompleteResult['usage'] {
  return { promptTokens: u?.prompt_tokens ?? null, completionTokens: u?.completion_tokens ?? null };
}

function parseJsonBody(raw: string): Attempt {
  let body: StreamChunk;
  try {
    body = JSON.parse(raw) as StreamChunk;
  } catch {
    throw new LanguageModelError('remote_error', 'the language model endpoint sent an unreadable answer');
  }
  if (body.error)
    throw new LanguageModelError(
      'remote_error',
      `the language model endpoint failed: ${errorText(body.error)}`,
    );
  const choice = body.choices?.[0];
  return {
    text: choice?.message?.content ?? '',
    finish: choice?.finish_reason ?? null,
    usage: usageOf(body.usage),
  };
}

/** Reads `data:` events until [DONE] (or the end of the body), passing content deltas on. */
async function readStream(
  res: OutboundResponse,
  onToken: ((t: string) => void) | undefined,
  alive: () => void,
): Promise<Attempt> {
  let text = '';
  let finish: string | null = null;
  let usage: CompleteResult['usage'] = { promptTokens: null, completionTokens: null };
  let pending = '';
  let data: string[] = [];
  const decoder = new TextDecoder();
  let done = false;
  const dispatch = () => {
    if (!data.length) return;
    const payload = data.join('\n');
    data = [];
    if (payload.trim() === '[DONE]') {
      done = true;
      return;
    }
    let chunk: StreamChunk;
    try {
      chunk = JSON.parse(payload) as StreamChunk;
    } catch {
      return; // a keep-alive or a comment-like line
    }
    if (chunk.error)
      throw new RetryableFailure(
        new LanguageModelError(
          'remote_error',
          `the language model endpoint failed: ${errorText(chunk.error)}`,
          true,
        ),
        null,
      );
    if (chunk.usage) usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    const piece = choice?.delta?.content ?? choice?.message?.content;
    if (piece) {
      text += piece;
      onToken?.(piece);
    }
    if (choice?.finish_reason) finish = choice.finish_reason;
  };
  for await (const buf of res.body()) {
    alive();
    pending += decoder.decode(buf, { stream: true });
    let nl: number;
    while ((nl = pending.search(/\r\n|\r|\n/)) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + (pending.startsWith('\r\n', nl) ? 2 : 1));
      if (line === '') dispatch();
      else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      if (done) return { text, finish, usage };
    }
  }
  if (pending.startsWith('data:')) data.push(pending.slice(pending.startsWith('data: ') ? 6 : 5));
  dispatch();
  if (!done && finish === null && text === '')
    throw new RetryableFailure(
      new LanguageModelError(
        'remote_error',
        'the language model endpoint ended the stream without an answer',
        true,
      ),
      null,
    );
  return { text, finish, usage };
}

function errorText(error: StreamChunk['error']): string {
  return (typeof error === 'string' ? error : (error?.message ?? 'unknown error')).slice(0, ERROR_DETAIL);
}

/** The message of an OpenAI-style error body, or its first characters. */
function errorDetail(text: string): string {
  try {
    const body = JSON.parse(text) as {
      error?: { message?: string } | string;
      message?: string;
      detail?: string;
    };
    const msg =
      typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message ?? body.detail);
    if (msg) return String(msg).slice(0, ERROR_DETAIL);
  } catch {
    // not JSON
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, ERROR_DETAIL);
}

function describe(u: string): string {
  try {
    return new URL(u).host;
  } catch {
    return 'the endpoint';
  }
}
