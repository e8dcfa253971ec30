// What an operator sees of a running server: liveness, readiness naming the dependency that is
// down, the metrics behind their token, and one request id from the request to its job's lines.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger';
import type { Engine } from '../engine/types';
import { testApp } from '../../test/harness';
import { makeMedia } from '../../test/media';
import { tusUpload } from '../../test/tus';
import { signedInUser } from '../../test/users';
import { waitFor } from '../../test/wait';

const TOKEN = 'a-metrics-token-of-some-length';
const lines: Array<Record<string, unknown>> = [];
const logger = createLogger(
  'info',
  new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      cb();
    },
  }),
);
// Finishes at once: two seconds of audio in next to no time.
const engine: Engine = {
  name: 'instant',
  async transcribe() {
    return { language: 'en', segments: [{ start: 0, end: 1.5, text: 'Hello.' }], speechRegions: null };
  },
};
let s3: S3rver;
let h: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  const root = path.resolve(`tmp/ops-test-${process.pid}`);
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: path.join(root, 's3'),
    configureBuckets: [{ name: 'media' }],
  });
  const { port } = await s3.run();
  h = await testApp(
    {},
    {
      DATA_DIR: path.join(root, 'data'),
      METRICS_TOKEN: TOKEN,
      S3_BUCKET: 'media',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    { engine, worker: true, logger },
  );
});
afterAll(async () => {
  await h?.close();
  await s3?.close().catch(() => undefined);
});

describe('operations endpoints', () => {
  it('carries the request id from the request that starts a transcription to its job’s log lines', async () => {
    const u = await signedInUser(h.db);
    const file = makeMedia(path.resolve('tmp/test-media'), 'wav', 2);
    const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
    const { id: uploadId } = await tusUpload(fetcher, u.headers, readFileSync(file), 'talk.wav');
    const res = await h.app.request('/self-api/v1/transcripts', {
      method: 'POST',
      headers: { ...u.headers, 'content-type': 'application/json', 'x-request-id': 'trace-0123456789' },
      body: JSON.stringify({ upload_id: uploadId, detect_speech: false }),
    });
    const id = ((await res.json()) as { data: { id: string } }).data.id;
    const done = await waitFor(
      () => lines.find((l) => l.msg === 'job done' && l.jobName === 'transcribe' && l.jobKey === id),
      { ms: 30_000, what: 'the job to log its end' },
    );
    expect(done).toMatchObject({ reqId: 'trace-0123456789', lane: 'transcription', outcome: 'done' });
    expect(typeof done.ms).toBe('number');
    expect(typeof done.jobId).toBe('string');
    expect(lines.find((l) => l.msg === 'job started' && l.jobKey === id)).toMatchObject({
      reqId: 'trace-0123456789',
    });
    expect(lines.find((l) => l.msg === 'request' && l.reqId === 'trace-0123456789')).toMatchObject({
      method: 'POST',
      status: 200,
    });
  });

  it('serves Prometheus metrics only with the token', async () => {
    expect((await h.app.request('/metrics')).status).toBe(401);
    expect(
      (await h.app.request('/metrics', { headers: { authorization: 'Bearer wrong-token-here' } })).status,
    ).toBe(401);
    const res = await h.app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const text = await res.text();
    expect(text).toMatch(
      /clipscribe_http_request_duration_seconds_bucket\{kind="api",method="POST",status="2xx",le="\+Inf"\} \d+/,
    );
    expect(text).toMatch(/clipscribe_job_duration_seconds_count\{name="transcribe",outcome="done"\} 1/);
    expect(text).toMatch(/clipscribe_transcription_speed_ratio_count 1/);
    expect(text).toMatch(/clipscribe_transcribed_audio_seconds_total 2/);
    expect(text).toContain('clipscribe_queue_jobs{lane="transcription",state="waiting"} 0');
    expect(text).toMatch(/clipscribe_event_loop_delay_seconds\{quantile="0.99"\} [\d.e-]+/);
    expect(text).toMatch(/clipscribe_process_resident_memory_bytes \d+/);
  });

  it('answers liveness, and readiness naming the dependency that is down', async () => {
    expect((await h.app.request('/healthz')).status).toBe(200);
    const ok = await h.app.request('/readyz');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      status: 'ready',
      checks: { db: 'ok', redis: 'off', storage: 'ok', model: 'off' },
    });
    await s3.close();
    const down = await h.app.request('/readyz');
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({
      status: 'unavailable',
      checks: { db: 'ok', redis: 'off', storage: 'down', model: 'off' },
    });
    // Alive all the same: restarting this process would not bring the store back.
    expect((await h.app.request('/healthz')).status).toBe(200);
  });
});

it('has no metrics endpoint without a token', async () => {
  const plain = await testApp();
  try {
    expect((await plain.app.request('/metrics')).status).toBe(404);
  } finally {
    await plain.close();
  }
});
