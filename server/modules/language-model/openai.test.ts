// The `openai` adapter against a local server speaking the chat completions protocol.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failing, silent, startChatServer, streamed, type ChatServer } from '../../test/chat-server';
import type { JsonSchema } from './json-schema';
import { createOpenAiModel, retryAfterMs, type OpenAiModelOptions } from './openai';
import { LanguageModelError } from './types';

let server: ChatServer;
let slept: number[];

beforeAll(async () => {
  server = await startChatServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  slept = [];
});

const model = (opts: Partial<OpenAiModelOptions> = {}) =>
  createOpenAiModel({
    baseUrl: server.url,
    apiKey: 'sk-test',
    model: 'test-model',
    allowPrivate: true,
    sleep: async (ms) => void slept.push(ms),
    ...opts,
  });

const user = (content: string) => [{ role: 'user' as const, content }];

const schema: JsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', maxLength: 80 },
    segments: { type: 'array', items: { type: 'integer', minimum: 0 }, maxItems: 3 },
  },
};

async function failureOf(p: Promise<unknown>): Promise<LanguageModelError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LanguageModelError);
  return err as LanguageModelError;
}

describe('openai language model adapter', () => {
  it('streams the answer piece by piece and reads the usage', async () => {
    server.reply(streamed(['The ', 'meeting ', 'ended.']));
    const pieces: string[] = [];
    const result = await model().complete({ messages: user('Summarise'), onToken: (t) => pieces.push(t) });
    expect(pieces).toEqual(['The ', 'meeting ', 'ended.']);
    expect(result.text).toBe('The meeting ended.');
    expect(result.stopReason).toBe('stop');
    expect(result.usage).toEqual({ promptTokens: 42, completionTokens: 3 });
    const req = server.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.auth).toBe('Bearer sk-test');
    expect(req.body).toMatchObject({ model: 'test-model', stream: true, messages: user('Summarise') });
    expect(req.body.response_format).toBeUndefined();
  });

  it('accepts a base URL that already ends in /v1', async () => {
    server.reply(streamed(['ok']));
    const result = await model({ baseUrl: `${server.url}/v1/` }).complete({ messages: user('hi') });
    expect(result.text).toBe('ok');
  });

  it('says when the answer was cut at max tokens', async () => {
    server.reply(streamed(['a', 'b'], { finish: 'length' }));
    const result = await model().complete({ messages: user('hi'), maxTokens: 2 });
    expect(result.stopReason).toBe('length');
    expect(server.requests[0]!.body.max_tokens).toBe(2);
  });

  it('asks for strict json_schema output and returns the parsed value', async () => {
    server.reply(streamed(['{"title":"Plan",', '"segments":[1,2]}']));
    const result = await model().complete({ messages: user('Title?'), schema });
    expect(result.json).toEqual({ title: 'Plan', segments: [1, 2] });
    const format = server.requests[0]!.body.response_format!;
    expect(format.type).toBe('json_schema');
    expect(format.json_schema).toMatchObject({
      strict: true,
      schema: {
        type: 'object',
        required: ['title', 'segments'],
        additionalProperties: false,
        properties: { title: { type: 'string' }, segments: { type: 'array', maxItems: 3 } },
      },
    });
    // OpenAI's strict mode refuses string lengths: they are not sent.
    expect(JSON.stringify(format.json_schema!.schema)).not.toContain('maxLength');
  });

  it('repairs a malformed reply with one more round that shows the model its mistake', async () => {
    server.reply(
      streamed(['Sure! {"title": "Plan", "segments": [1,']),
      streamed(['{"title":"Plan","segments":[4]}']),
    );
    const pieces: string[] = [];
    const result = await model().complete({
      messages: user('Title?'),
      schema,
      onToken: (t) => pieces.push(t),
    });
    expect(result.json).toEqual({ title: 'Plan', segments: [4] });
    expect(server.requests).toHaveLength(2);
    const second = server.requests[1]!.body.messages;
    expect(second.at(-2)).toEqual({ role: 'assistant', content: 'Sure! {"title": "Plan", "segments": [1,' });
    expect(second.at(-1)!.role).toBe('user');
    expect(second.at(-1)!.content).toContain('not JSON');
    // Only the first round is streamed to the caller.
    expect(pieces.join('')).toBe('Sure! {"title": "Plan", "segments": [1,');
  });

  it('repairs a reply that is JSON of the wrong shape, naming what is wrong', async () => {
    server.reply(
      streamed(['{"title":"Plan","segments":[-1]}']),
      streamed(['{"title":"Plan","segments":[0]}']),
    );
    const result = await model().complete({ messages: user('Title?'), schema });
    expect(result.json).toEqual({ title: 'Plan', segments: [0] });
    expect(server.requests[1]!.body.messages.at(-1)!.content).toContain('$.segments[0]: below 0');
  });

  it('fails with invalid_output when the repaired reply is still wrong', async () => {
    server.reply(streamed(['nope']));
    const err = await failureOf(model().complete({ messages: user('Title?'), schema }));
    expect(err.code).toBe('invalid_output');
    expect(err.message).toContain('test-model');
    expect(server.requests).toHaveLength(2);
  });

  it('falls back to JSON mode, then to the schema in the prompt, when the endpoint refuses them', async () => {
    server.reply(
      failing(
        400,
        "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
      ),
      failing(400, "'response_format.type' json_object is not supported"),
      streamed(['{"title":"T","segments":[]}']),
    );
    const m = model();
    const result = await m.complete({
      messages: [{ role: 'system', content: 'Be brief.' }, ...user('Title?')],
      schema,
    });
    expect(result.json).toEqual({ title: 'T', segments: [] });
    expect(server.requests.map((r) => r.body.response_format?.type ?? null)).toEqual([
      'json_schema',
      'json_object',
      null,
    ]);
    const system = server.requests[2]!.body.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/^Be brief\.\n\nAnswer with one JSON value only/);
    // Learned once: the next call goes straight to the prompt form.
    server.reply(streamed(['{"title":"U","segments":[]}']));
    await m.complete({ messages: user('Again'), schema });
    expect(server.requests[3]!.body.response_format).toBeUndefined();
  });

  it('drops stream_options for an endpoint that refuses it', async () => {
    server.reply(failing(400, 'Unrecognized request argument supplied: stream_options'), streamed(['ok']));
    const result = await model().complete({ messages: user('hi') });
    expect(result.text).toBe('ok');
    expect(server.requests[1]!.body.stream_options).toBeUndefined();
    expect(result.usage.promptTokens).toBeNull();
  });

  it('retries a 429, waiting as long as Retry-After says', async () => {
    server.reply(failing(429, 'Rate limit reached', { 'retry-after': '3' }), streamed(['fine']));
    const result = await model().complete({ messages: user('hi') });
    expect(result.text).toBe('fine');
    expect(server.requests).toHaveLength(2);
    expect(slept).toEqual([3000]);
  });

  it('gives up on a Retry-After longer than it is willing to wait', async () => {
    server.reply(failing(429, 'Rate limit reached', { 'retry-after': '3600' }));
    const err = await failureOf(model().complete({ messages: user('hi') }));
    expect(err.code).toBe('rate_limited');
    expect(err.transient).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('retries 5xx with growing back-off and then fails with a clear, transient error', async () => {
    server.reply(failing(500, 'The server had an error while processing your request.'));
    const err = await failureOf(model({ attempts: 3 }).complete({ messages: user('hi') }));
    expect(err.code).toBe('remote_error');
    expect(err.transient).toBe(true);
    expect(err.message).toBe(
      'the language model endpoint failed (HTTP 500): The server had an error while processing your request.',
    );
    expect(server.requests).toHaveLength(3);
    expect(slept).toHaveLength(2);
    expect(slept[1]!).toBeGreaterThan(slept[0]!);
  });

  it('turns a refused key into a lasting error that names the setting', async () => {
    server.reply(failing(401, 'Incorrect API key provided'));
    const err = await failureOf(model().complete({ messages: user('hi') }));
    expect(err.code).toBe('remote_rejected');
    expect(err.transient).toBe(false);
    expect(err.message).toContain('LLM_API_KEY');
    expect(server.requests).toHaveLength(1);
  });

  it('reports a prompt longer than the context', async () => {
    server.reply(
      failing(
        400,
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
      ),
    );
    const err = await failureOf(model().complete({ messages: user('long') }));
    expect(err.code).toBe('context_overflow');
  });

  it('times out an endpoint that does not answer', async () => {
    server.reply(silent);
    const err = await failureOf(model({ timeoutMs: 200, attempts: 2 }).complete({ messages: user('hi') }));
    expect(err.code).toBe('timeout');
    expect(err.transient).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('times out a stream that stops sending', async () => {
    server.reply(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'half' } }] })}\n\n`);
    });
    const pieces: string[] = [];
    const err = await failureOf(
      model({ idleTimeoutMs: 200 }).complete({ messages: user('hi'), onToken: (t) => pieces.push(t) }),
    );
    expect(err.code).toBe('timeout');
    // Something was streamed already: no retry that would repeat it.
    expect(pieces).toEqual(['half']);
    expect(server.requests).toHaveLength(1);
  });

  it('stops when the caller cancels', async () => {
    server.reply(streamed(['a', 'b', 'c', 'd'], { gapMs: 200 }));
    const ac = new AbortController();
    const done = model().complete({
      messages: user('hi'),
      signal: ac.signal,
      onToken: () => ac.abort(),
    });
    const err = await failureOf(done);
    expect(err.code).toBe('canceled');
  });

  it('reads a server that answers with one JSON body instead of a stream', async () => {
    server.reply((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ message: { content: 'whole' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 1 },
        }),
      );
    });
    const pieces: string[] = [];
    const result = await model().complete({ messages: user('hi'), onToken: (t) => pieces.push(t) });
    expect(result.text).toBe('whole');
    expect(pieces).toEqual(['whole']);
    expect(result.usage).toEqual({ promptTokens: 5, completionTokens: 1 });
  });

  it('refuses to follow a redirect away from the configured endpoint', async () => {
    server.reply((_req, res) => {
      res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data' });
      res.end();
    });
    const err = await failureOf(model().complete({ messages: user('hi') }));
    expect(err.code).toBe('unreachable');
    expect(err.message).toContain('LLM_BASE_URL');
  });

  it('reaches a private endpoint only when the wiring allows it explicitly', async () => {
    server.reply((_req, res) => void res.end('{}'));
    const err = await failureOf(model({ allowPrivate: false }).complete({ messages: user('hi') }));
    expect(err.code).toBe('unreachable');
    expect(server.requests).toHaveLength(0);
  });

  it('reads Retry-After in seconds and as a date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(undefined)).toBeNull();
  });
});
