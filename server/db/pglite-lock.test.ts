import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseBusyError, openDatabase } from './client';
import { users } from './schema';
import { SLOW_PROCESS_TIMEOUT_MS, waitFor } from '../test/wait';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-db-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Processes whose command line mentions `text` (the set-up child carries its folder's name). */
function processesWith(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.includes(text) && Number(entry) !== process.pid) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

describe.skipIf(process.env.TEST_DATABASE_URL)('the embedded database folder is locked', () => {
  it(
    'lets one process open it at a time, and says who holds it',
    async () => {
      const pgliteDir = path.join(dir, 'one', 'pglite');
      const first = await openDatabase({ pgliteDir });
      const err = await openDatabase({ pgliteDir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseBusyError);
      expect((err as DatabaseBusyError).holder).toBe(process.pid);
      expect((err as Error).message).toContain('Stop it first');
      // A second opener waiting for the lock gets it once the first lets go.
      const waiting = openDatabase({ pgliteDir, lockWaitMs: 20_000 });
      await new Promise((r) => setTimeout(r, 300));
      await first.close();
      const second = await waiting;
      expect(await second.db.select().from(users)).toEqual([]);
      await second.close();
    },
    SLOW_PROCESS_TIMEOUT_MS,
  );

  it.skipIf(process.platform !== 'linux')(
    'survives a process killed during its first start: the set-up child dies too, the next start begins again',
    async () => {
      const dataDir = path.join(dir, 'interrupted');
      const pgliteDir = path.join(dataDir, 'pglite');
      const code = `const { openDatabase } = await import(${JSON.stringify(path.resolve('server/db/client.ts'))});
await openDatabase({ pgliteDir: process.argv[1] });
setInterval(() => {}, 1000);`;
      const opener = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', code, pgliteDir],
        {
          stdio: 'ignore',
        },
      );
      // Kill it while its set-up child is building the folder.
      const building = `pglite.init-${opener.pid}`;
      await waitFor(() => existsSync(path.join(dataDir, building)), {
        ms: 30_000,
        what: 'the set-up to begin',
      });
      const children = await waitFor(
        () => {
          const found = processesWith(building);
          return found.length > 0 ? found : undefined;
        },
        { ms: 10_000, what: 'the set-up child' },
      );
      opener.kill('SIGKILL');
      // The set-up child does not outlive its parent.
      await waitFor(() => children.every((pid) => !alive(pid)), {
        ms: 5_000,
        what: 'the set-up child to die',
      });
      expect(existsSync(path.join(pgliteDir, 'PG_VERSION'))).toBe(false);

      const database = await openDatabase({ pgliteDir, lockWaitMs: 10_000 });
      await database.db.insert(users).values({ email: 'after@example.com' });
      expect(await database.db.select({ email: users.email }).from(users)).toEqual([
        { email: 'after@example.com' },
      ]);
      await database.close();
      // The half-built folder is gone.
      expect(readdirSync(dataDir).filter((n) => n.includes('.init-'))).toEqual([]);
    },
    SLOW_PROCESS_TIMEOUT_MS,
  );
});
