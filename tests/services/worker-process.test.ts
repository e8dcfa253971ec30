import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../server/test/harness';
import { makeMedia } from '../../server/test/media';
import { freePort } from '../../server/test/private-services';
import { testModelPath } from '../../server/test/test-model';
import { tusUpload } from '../../server/test/tus';
import { signedInUser } from '../../server/test/users';
import { waitFor } from '../../server/test/wait';

// `npm run worker` as an operator runs it: its health endpoints, one log line per job with the
// request's id, SIGTERM handing the running job back (and saying so), and no word about mail.
const DATA_DIR = path.resolve('tmp/test-data-worker-process');
const PREFIX = `cs-worker-${process.pid}-${Date.now()}`;
let h: Awaited<ReturnType<typeof testApp>>;
let worker: ChildProcess | null = null;
let out = '';

beforeAll(async () => {
  rmSync(DATA_DIR, { recursive: true, force: true });
  h = await testApp({}, { DATA_DIR, REDIS_URL: process.env.TEST_REDIS_URL!, QUEUE_PREFIX: PREFIX });
});
afterAll(async () => {
  if (worker && worker.exitCode === null) worker.kill('SIGKILL');
  await h?.close();
});

const lines = () =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('a worker process', () => {
  it('answers its health checks, logs each job with its request id, and hands its job back on SIGTERM', async () => {
    const port = await freePort();
    worker = spawn(process.execPath, ['--import', 'tsx', 'server/worker.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        REDIS_URL: process.env.TEST_REDIS_URL,
        DATA_DIR,
        WHISPER_MODEL: await testModelPath(),
        WHISPER_THREADS: '1',
        QUEUE_PREFIX: PREFIX,
        HEALTH_PORT: String(port),
        SMTP_URL: '',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    worker.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const health = `http://127.0.0.1:${port}`;
    const ready = await waitFor(
      () =>
        fetch(`${health}/readyz`)
          .then(async (r) => (r.status === 200 ? ((await r.json()) as unknown) : undefined))
          .catch(() => undefined),
      { ms: 60_000, everyMs: 200, what: () => `the worker to be ready; it logged: ${out.slice(-2000)}` },
    );
    expect(ready).toEqual({
      status: 'ready',
      checks: { db: 'ok', redis: 'ok', storage: 'ok', model: 'ready' },
    });
    expect((await fetch(`${health}/healthz`)).status).toBe(200);

    const u = await signedInUser(h.db);
    const file = makeMedia(path.resolve('tmp/test-media'), 'wav', 600);
    const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
    const { id: uploadId } = await tusUpload(fetcher, u.headers, readFileSync(file), 'long.wav', {
      chunkSize: 8 * 1024 * 1024,
    });
    const created = await h.app.request('/self-api/v1/transcripts', {
      method: 'POST',
      headers: { ...u.headers, 'content-type': 'application/json', 'x-request-id': 'start-0123456789' },
      body: JSON.stringify({ upload_id: uploadId }),
    });
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    await waitFor(() => lines().find((l) => l.msg === 'job started' && l.jobKey === id), {
      ms: 60_000,
      what: 'the job to start on the worker',
    });
    expect(lines().find((l) => l.msg === 'job started' && l.jobKey === id)).toMatchObject({
      reqId: 'start-0123456789',
      jobName: 'transcribe',
    });

    const exited = new Promise<number | null>((r) => worker!.once('exit', r));
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    const back = lines().find((l) => l.msg === 'job handed back to the queue');
    expect(back).toMatchObject({ reason: 'shutdown' });
    expect(JSON.stringify(back)).toContain(id);
    expect(lines().some((l) => l.msg === 'worker stopped')).toBe(true);
    // A worker sends no mail, so it says nothing about SMTP or an outbox.
    expect(out).not.toMatch(/SMTP|outbox/i);
    expect(lines().filter((l) => (l.level as number) >= 50)).toEqual([]);
  }, 180_000);
});
