import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../db/client';
import { loadEnv } from '../../env';
import { createSession } from '../auth/sessions';
import { newTranscript } from '../../test/factories';
import { testApp } from '../../test/harness';
import { signedInUser } from '../../test/users';
import { runBackup, runRestore } from '../../../scripts/admin-ops';

const root = mkdtempSync(path.join(os.tmpdir(), 'clipscribe-backup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const envOf = (dir: string) => loadEnv({ NODE_ENV: 'test', DATA_DIR: dir });

function quietly<T>(fn: () => Promise<T>) {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  return fn().finally(() => {
    log.mockRestore();
    err.mockRestore();
  });
}

describe('admin backup and restore (embedded database)', () => {
  it('restores every transcript and its media into a fresh folder where the app serves them', async () => {
    const source = path.join(root, 'source');
    const database = await openDatabase({ pgliteDir: path.join(source, 'pglite') });
    const { user } = await signedInUser(database.db);
    const made: { id: string; name: string; bytes: Buffer }[] = [];
    for (let i = 0; i < 3; i++) {
      const name = `Interview ${i}`;
      const t = await newTranscript(database.db, user.id, {
        name,
        status: 'done',
        mediaKey: 'pending',
        mediaType: 'audio/mpeg',
        segments: [{ start: 0, end: 1, text: `words of ${name}` }],
        plainText: `words of ${name}`,
      });
      const key = `media/${user.id}/${t.id}`;
      const bytes = randomBytes(100_000 + i * 777);
      mkdirSync(path.join(source, 'media', user.id), { recursive: true });
      writeFileSync(path.join(source, key), bytes);
      await database.db.execute(`update transcripts set media_key = '${key}' where id = '${t.id}'`);
      made.push({ id: t.id, name, bytes });
    }

    // A running server holds the database: the backup refuses and touches nothing.
    const file = path.join(root, 'site.backup.tar');
    expect(await quietly(() => runBackup(envOf(source), file))).toBe(1);
    expect(existsSync(file)).toBe(false);
    await database.close();

    expect(await quietly(() => runBackup(envOf(source), file))).toBe(0);
    // Never over an existing file.
    expect(await quietly(() => runBackup(envOf(source), file))).toBe(1);

    // Only into a fresh DATA_DIR.
    const used = path.join(root, 'used');
    mkdirSync(path.join(used, 'media'), { recursive: true });
    expect(await quietly(() => runRestore(envOf(used), file))).toBe(1);

    const fresh = path.join(root, 'fresh');
    expect(await quietly(() => runRestore(envOf(fresh), file))).toBe(0);
    expect(existsSync(path.join(fresh, 'pglite', 'PG_VERSION'))).toBe(true);

    const h = await testApp({}, { DATA_DIR: fresh }, { pgliteDir: path.join(fresh, 'pglite') });
    try {
      const token = await createSession(h.db, user.id, {}, new Date());
      const headers = { cookie: `token=${token}`, origin: 'http://localhost' };
      const list = await h.api('GET', '/transcripts', headers);
      expect(list.res.status).toBe(200);
      const names = (list.json.data.items as { name: string }[]).map((t) => t.name).sort();
      expect(names).toEqual(made.map((m) => m.name));
      for (const m of made) {
        const one = await h.api('GET', `/transcripts/${m.id}`, headers);
        expect(one.json.data.segments[0].text).toBe(`words of ${m.name}`);
        const media = await h.app.request(`/self-api/v1/transcripts/${m.id}/media`, { headers });
        expect(media.status).toBe(200);
        expect(Buffer.from(await media.arrayBuffer()).equals(m.bytes)).toBe(true);
      }
    } finally {
      await h.close();
    }
  }, 300_000);

  it('refuses a file that is not a backup, and a truncated one', async () => {
    const junk = path.join(root, 'junk.tar');
    writeFileSync(junk, randomBytes(4096));
    expect(await quietly(() => runRestore(envOf(path.join(root, 'fresh-junk')), junk))).toBe(1);
    expect(existsSync(path.join(root, 'fresh-junk', 'pglite'))).toBe(false);
    const whole = readFileSync(path.join(root, 'site.backup.tar'));
    const cut = path.join(root, 'cut.tar');
    writeFileSync(cut, whole.subarray(0, whole.length - 150_000));
    expect(await quietly(() => runRestore(envOf(path.join(root, 'fresh-cut')), cut))).toBe(1);
    expect(existsSync(path.join(root, 'fresh-cut', 'pglite'))).toBe(false);
  });
});
