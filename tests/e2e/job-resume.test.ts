import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { jobs, usageRecords } from '../../server/db/schema';
import { makeMedia } from '../../server/test/media';
import { testModelPath } from '../../server/test/test-model';
import { tusUpload } from '../../server/test/tus';
import { waitFor } from '../../server/test/wait';
import { apiSignup } from './session';
import { startServer, type RunningServer } from './server';

let server: RunningServer | undefined;
afterAll(async () => server?.stop());

async function getJson(base: string, p: string, headers: Record<string, string>) {
  const res = await fetch(`${base}/self-api/v1${p}`, { headers });
  return ((await res.json()) as { data: any }).data;
}

async function waitStatus(
  base: string,
  id: string,
  headers: Record<string, string>,
  wanted: string[],
  ms: number,
) {
  let last: string | undefined;
  return waitFor(
    async () => {
      const t = await getJson(base, `/transcripts/${id}`, headers);
      last = t.status;
      return wanted.includes(t.status) ? t : undefined;
    },
    { ms, everyMs: 100, what: () => `${wanted.join('/')}, transcript still ${last}` },
  );
}

describe('the embedded job runner survives kill -9', () => {
  it('takes the job up again after a restart and finishes it exactly once', async () => {
    const env = { WHISPER_MODEL: await testModelPath(), WHISPER_THREADS: '1' };
    server = await startServer(env, { keepData: true });
    const dataDir = server.dataDir;
    const headers = await apiSignup(server.url, dataDir, `resume-${Date.now()}@example.com`);
    // Long enough that the job is still running when the process is killed.
    const file = makeMedia(path.resolve('tmp/test-media'), 'wav', 600);
    const base = server.url;
    const fetcher = (p: string, init: RequestInit) => fetch(`${base}${p}`, init);
    const { id: uploadId } = await tusUpload(fetcher, headers, readFileSync(file), 'long.wav', {
      chunkSize: 4 * 1024 * 1024,
    });
    const created = await fetch(`${base}/self-api/v1/transcripts`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ upload_id: uploadId }),
    });
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    await waitStatus(base, id, headers, ['processing'], 30_000);

    server.proc.kill('SIGKILL');
    await new Promise((r) => server!.proc.once('exit', r));

    server = await startServer(env, { dataDir, keepData: false });
    const done = await waitStatus(server.url, id, headers, ['done', 'failed'], 180_000);
    expect(done.status).toBe('done');
    expect(done.progress).toBe(100);
    const user = await fetch(`${server.url}/common-api/v1/user`, { headers });
    const quota = ((await user.json()) as { data: any }).data.permissions_quota;
    expect(quota.minutes_used).toBeCloseTo(10, 1);

    // Stop the server to read its database: one charge, one finished transcription job that ran
    // twice (the table also holds the hourly sweep's next run).
    const proc = server.proc;
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    const db = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
    try {
      expect(await db.db.select().from(usageRecords)).toHaveLength(1);
      const rows = await db.db.select().from(jobs).where(eq(jobs.name, 'transcribe'));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'done', attempts: 2 });
    } finally {
      await db.close();
    }
  }, 300_000);
});
