import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import { makeMedia } from '../test/media';
import { freePort } from '../test/private-services';
import { testModelPath } from '../test/test-model';
import { tusUpload } from '../test/tus';
import { signedInUser } from '../test/users';
import { waitFor } from '../test/wait';

// kill -9 of the web process (embedded default, jobs in the same process) in the middle of a
// transcription: its engine child must not live on, and its decoded audio must not stay in the
// temporary folder once the server is started again (docs/decisions/0028).
const root = mkdtempSync(path.join(os.tmpdir(), 'cs-kill-web-'));
const dataDir = path.join(root, 'data');
const tmp = path.join(root, 'tmp');
const procs: ChildProcess[] = [];
afterAll(() => {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

/** Every process below `pid`, read from /proc. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of parents.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}
const alive = (pid: number) =>
  existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};
const scratchDirs = () =>
  existsSync(tmp) ? readdirSync(tmp).filter((n) => n.startsWith('clipscribe-scratch-')) : [];

async function start(port: number, model: string) {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/test/app-process.ts'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      WHISPER_MODEL: model,
      TMPDIR: tmp,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  procs.push(proc);
  let out = '';
  proc.stdout!.setEncoding('utf8').on('data', (c: string) => (out = (out + c).slice(-20_000)));
  await waitFor(() => out.includes('"listening":true'), {
    ms: 120_000,
    what: () => `the app to listen: ${out}`,
  });
  return proc;
}

describe.skipIf(process.platform !== 'linux')('kill -9 of the web process mid-transcription', () => {
  it('leaves no engine child running and no decoded audio behind after the restart', async () => {
    mkdirSync(tmp, { recursive: true });
    const model = await testModelPath();
    const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
    const u = await signedInUser(database.db);
    await database.close();

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = await start(port, model);
    const fetcher = (p: string, init: RequestInit) => fetch(`${base}${p}`, init);
    const headers = { ...u.headers, origin: base };
    const media = makeMedia(path.join(root, 'media'), 'wav', 600);
    const { id: uploadId } = await tusUpload(fetcher, headers, readFileSync(media), 'long.wav', {
      chunkSize: 8 * 1024 * 1024,
    });
    const created = await fetcher('/self-api/v1/transcripts', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ upload_id: uploadId }),
    });
    expect(created.status).toBe(200);
    const id = ((await created.json()) as { data: { id: string } }).data.id;

    // The engine's child at work, and the decoded audio in this process's scratch folder.
    const engine = await waitFor(
      () => descendants(first.pid!).find((p) => /whisper|child\.ts/.test(cmdline(p))),
      {
        ms: 120_000,
        everyMs: 100,
        what: 'the engine child to start',
      },
    );
    const [scratch] = scratchDirs();
    expect(scratch).toContain(`clipscribe-scratch-${first.pid}-`);
    const held = () => readdirSync(path.join(tmp, scratch!), { recursive: true }).length;
    expect(held()).toBeGreaterThan(1);
    const family = descendants(first.pid!);

    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    await waitFor(() => family.every((p) => !alive(p)), {
      ms: 10_000,
      what: () =>
        `the children to end: ${family
          .filter(alive)
          .map((p) => `${p} ${cmdline(p)}`)
          .join('; ')}`,
    });
    expect(alive(engine)).toBe(false);

    // Started again: the dead process's audio is swept, the job runs again and ends.
    const second = await start(port, model);
    await waitFor(() => !scratchDirs().includes(scratch!), {
      ms: 60_000,
      what: 'the old scratch folder to go',
    });
    const status = await waitFor(
      async () => {
        const r = await fetcher(`/self-api/v1/transcripts/${id}`, { headers });
        const s = ((await r.json()) as { data: { status: string } }).data.status;
        return s === 'done' || s === 'failed' ? s : undefined;
      },
      { ms: 240_000, everyMs: 1_000, what: 'the transcription to end after the restart' },
    );
    expect(status).toBe('done');
    const secondFamily = descendants(second.pid!);
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
    expect(secondFamily.filter(alive)).toEqual([]);
    expect(scratchDirs()).toEqual([]);
  }, 600_000);
});
