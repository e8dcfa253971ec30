import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { newTranscript } from '../test/factories';
import { signedInUser } from '../test/users';
import { tusUpload } from '../test/tus';

// A real full disk: a size-limited tmpfs holding DATA_DIR and the embedded database (root only;
// the fault matrix in bench/ does the same with the whole server).
const mountPoint = path.join(os.tmpdir(), `cs-full-${process.pid}`);
function mountSmallDisk(): boolean {
  if (process.platform !== 'linux' || process.env.TEST_DATABASE_URL) return false;
  try {
    mkdirSync(mountPoint, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const mounted = mountSmallDisk();

/** Fills the disk with files of 256 kB until it refuses; returns how to give the space back. */
function fillDisk(): () => void {
  const files: string[] = [];
  try {
    for (let i = 0; ; i++) {
      const file = path.join(mountPoint, `fill-${i}`);
      writeFileSync(file, Buffer.alloc(256 * 1024));
      files.push(file);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
  return () => files.forEach((f) => rmSync(f, { force: true }));
}

describe.skipIf(!mounted)('a full disk', () => {
  let h: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    h = await testApp({}, { DATA_DIR: mountPoint }, { pgliteDir: path.join(mountPoint, 'pglite') });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    try {
      execFileSync('umount', [mountPoint], { stdio: 'ignore' });
      rmSync(mountPoint, { recursive: true, force: true });
    } catch {
      // left for the machine's next clean-up
    }
  });

  it('refuses uploads and edits with a translated 507 to retry after, and takes them once space returns', async () => {
    const u = await signedInUser(h.db);
    const t = await newTranscript(h.db, u.user.id, { status: 'done' });
    const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
    const bytes = Buffer.alloc(4 * 1024 * 1024, 7);
    const free = fillDisk();
    try {
      const upload = await tusUpload(fetcher, u.headers, bytes, 'talk.mp4', { chunkSize: 1024 * 1024 });
      expect(upload.response.status).toBe(507);
      expect(upload.response.headers.get('retry-after')).toBe('60');
      expect(await upload.response.json()).toMatchObject({ code: 507, message_key: 'errors.api.outOfSpace' });

      // Enough rows to need new pages of the table on the full disk.
      let refused: Response | null = null;
      for (let i = 0; i < 400 && !refused; i++) {
        const res = await h.app.request(`/self-api/v1/transcripts/${t.id}`, {
          method: 'PATCH',
          headers: { ...u.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Renamed ${i} ${'x'.repeat(180)}` }),
        });
        if (res.status !== 200) refused = res;
      }
      expect(refused?.status).toBe(507);
      expect(refused?.headers.get('retry-after')).toBe('60');
      expect(await refused!.json()).toMatchObject({ code: 507, message_key: 'errors.api.outOfSpace' });
    } finally {
      free();
    }
    // Space is back: the same calls go through, nothing was damaged.
    const again = await tusUpload(fetcher, u.headers, bytes, 'talk.mp4', { chunkSize: 1024 * 1024 });
    expect(again.response.status).toBe(204);
    const renamed = await h.api('PATCH', `/transcripts/${t.id}`, u.headers, { name: 'After' });
    expect(renamed.json.data.name).toBe('After');
  }, 120_000);
});
