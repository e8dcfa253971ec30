import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../server/test/harness';
import { makeMedia } from '../../server/test/media';
import { testModelPath } from '../../server/test/test-model';
import { tusUpload } from '../../server/test/tus';
import { signedInUser } from '../../server/test/users';
import { waitFor } from '../../server/test/wait';
import { usageRecords } from '../../server/db/schema';

const DATA_DIR = path.resolve('tmp/test-data-bullmq');
const PREFIX = `cs-test-${process.pid}-${Date.now()}`;
let h: Awaited<ReturnType<typeof testApp>>;
let model: string;
const workers: ChildProcess[] = [];

function startWorker(): ChildProcess {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/worker.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      REDIS_URL: process.env.TEST_REDIS_URL,
      DATA_DIR,
      WHISPER_MODEL: model,
      WHISPER_THREADS: '1',
      QUEUE_PREFIX: PREFIX,
      QUEUE_LOCK_MS: '3000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  workers.push(proc);
  return proc;
}

beforeAll(async () => {
  model = await testModelPath();
  h = await testApp(
    {},
    { DATA_DIR, REDIS_URL: process.env.TEST_REDIS_URL!, QUEUE_PREFIX: PREFIX, QUEUE_LOCK_MS: '3000' },
  );
});
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  await h?.close();
});

async function status(headers: Record<string, string>, id: string) {
  const res = await h.app.request(`/self-api/v1/transcripts/${id}`, { headers });
  return ((await res.json()) as { data: { status: string; progress: number } }).data;
}

async function waitForStatus(headers: Record<string, string>, id: string, wanted: string[], ms: number) {
  let last: string | undefined;
  return waitFor(
    async () => {
      const t = await status(headers, id);
      last = t.status;
      return wanted.includes(t.status) ? t : undefined;
    },
    { ms, everyMs: 100, what: () => `${wanted.join('/')}, still ${last}` },
  );
}

describe('BullMQ with separate worker processes', () => {
  it('a killed worker’s job is finished once by another, and progress reaches the web process', async () => {
    const u = await signedInUser(h.db);
    const file = makeMedia(path.resolve('tmp/test-media'), 'wav', 600);
    const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
    const { id: uploadId } = await tusUpload(fetcher, u.headers, readFileSync(file), 'long.wav', {
      chunkSize: 8 * 1024 * 1024,
    });
    const created = await h.app.request('/self-api/v1/transcripts', {
      method: 'POST',
      headers: { ...u.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ upload_id: uploadId }),
    });
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    expect((await status(u.headers, id)).status).toBe('queued');

    const first = startWorker();
    await waitForStatus(u.headers, id, ['processing'], 60_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));

    startWorker();
    // The web process hears the new worker's progress over Redis.
    const events = await h.app.request(`/self-api/v1/transcripts/${id}/events`, { headers: u.headers });
    const text = await events.text();
    expect(text).toMatch(/event: status\ndata: .*"status":"processing"/);
    expect(text).toMatch(/event: snapshot\ndata: .*"status":"done"/);

    const done = await waitForStatus(u.headers, id, ['done', 'failed'], 10_000);
    expect(done.status).toBe('done');
    const usage = await h.db.select().from(usageRecords).where(eq(usageRecords.userId, u.user.id));
    expect(usage).toHaveLength(1);
    expect(usage[0]!.seconds).toBeCloseTo(600, 0);
  }, 240_000);
});
