import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/modules/engine/types';
import { testApp } from '../../server/test/harness';
import { makeMedia } from '../../server/test/media';
import { tusUpload } from '../../server/test/tus';
import { signedInUser } from '../../server/test/users';
import { waitFor } from '../../server/test/wait';

// Two web processes on one PostgreSQL and no Redis (the smallest way to run several): the page
// open on one follows a job the other runs, and its cancel stops that engine.
const DATA_DIR = path.resolve('tmp/test-data-pg-events');
const env = { DATA_DIR, DATABASE_URL: process.env.TEST_DATABASE_URL! };
let web: Awaited<ReturnType<typeof testApp>>;
let runner: Awaited<ReturnType<typeof testApp>>;
let stoppedBy: unknown = null;
let engineRunning = false;

// Reports progress and a long segment (more than one NOTIFY's worth), then runs until canceled.
const engine: Engine = {
  name: 'until-canceled',
  async transcribe(_audio, opts) {
    engineRunning = true;
    opts.onProgress?.(10, { percent: 10, remainingSec: 50 });
    opts.onSegment?.({ start: 0, end: 2, text: `${'la parole est longue '.repeat(600)}ünïcödé 語` });
    await new Promise<void>((resolve) => {
      if (opts.signal?.aborted) return resolve();
      opts.signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    stoppedBy = opts.signal?.reason;
    engineRunning = false;
    throw opts.signal?.reason === 'cancel' ? new Error('canceled') : new Error('stopped');
  },
};

beforeAll(async () => {
  web = await testApp({}, env);
  runner = await testApp({}, env, { engine, worker: true, exclusiveDb: false });
});
afterAll(async () => {
  await runner?.close();
  await web?.close();
});

describe('several web processes on PostgreSQL without Redis', () => {
  it('carries progress, segments and cancel between processes through LISTEN/NOTIFY', async () => {
    const u = await signedInUser(web.db);
    const file = makeMedia(path.resolve('tmp/test-media'), 'wav', 3);
    const fetcher = (p: string, init: RequestInit) => web.app.request(p, init);
    const { id: uploadId } = await tusUpload(fetcher, u.headers, readFileSync(file), 'talk.wav');
    const created = await web.api('POST', '/transcripts', u.headers, {
      upload_id: uploadId,
      detect_speech: false,
    });
    const id = created.json.data.id as string;

    const aborted = new AbortController();
    const res = await web.app.request(`/self-api/v1/transcripts/${id}/events`, {
      headers: u.headers,
      signal: aborted.signal,
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    const read = async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        seen += value;
      }
    };
    const reading = read().catch(() => undefined);

    // The job runs in the other process; the stream here sees its progress and its segment.
    // (The engine's 10 % is placed on the job's bar, so the page's number differs: any will do.)
    await waitFor(() => /"progress":[1-9]/.test(seen) && seen.includes('event: segment'), {
      ms: 20_000,
      what: () => `progress and a segment from the other process, got ${seen.slice(0, 300)}`,
    });
    expect(seen).toContain('ünïcödé 語');
    expect(engineRunning).toBe(true);

    // Cancel here; the engine there stops.
    const canceled = await web.api('POST', `/transcripts/${id}/cancel`, u.headers);
    expect(canceled.json.data.status).toBe('canceled');
    await waitFor(() => !engineRunning, { ms: 10_000, what: 'the engine in the other process to stop' });
    expect(stoppedBy).toBe('cancel');
    aborted.abort();
    await reading;
  }, 60_000);
});
