import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratch } from './scratch';
import { parentDeathSignal } from './tied-spawn';
import { waitFor } from '../test/wait';

const root = mkdtempSync(path.join(os.tmpdir(), 'cs-process-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Runs `code` (ESM, tsx) in a child that prints one line, and returns it with the process. */
async function child(code: string) {
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: process.cwd(),
  });
  let out = '';
  proc.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  const line = await waitFor(() => out.includes('\n') && out.split('\n')[0], {
    ms: 30_000,
    what: 'the child',
  });
  return { proc, line };
}

describe('processes', () => {
  it('removes the scratch folder of a process killed mid-job, and no live one', async () => {
    const scratch = path.resolve('server/process/scratch.ts');
    const { proc, line } = await child(
      `const { createScratch } = await import(${JSON.stringify(scratch)});
       const { writeFileSync } = await import('node:fs');
       const s = createScratch(${JSON.stringify(root)});
       writeFileSync(s.dir + '/audio.pcm', Buffer.alloc(1024));
       console.log(s.dir); setInterval(() => {}, 1000);`,
    );
    const live = createScratch(root);
    expect(await createScratch(root).sweep()).toBe(0);
    expect(existsSync(path.join(line, 'audio.pcm'))).toBe(true);
    proc.kill('SIGKILL');
    await new Promise((r) => proc.once('exit', r));
    const mine = createScratch(root);
    expect(await mine.sweep()).toBeGreaterThanOrEqual(1);
    expect(existsSync(line)).toBe(false);
    expect(existsSync(live.dir)).toBe(true);
    expect(existsSync(mine.dir)).toBe(true);
    live.close();
    mine.close();
    expect(existsSync(mine.dir)).toBe(false);
  }, 60_000);

  it.skipIf(!parentDeathSignal())(
    'ends a tied child when its parent is killed',
    async () => {
      const tied = path.resolve('server/process/tied-spawn.ts');
      const { proc, line } = await child(
        `const { spawnTied } = await import(${JSON.stringify(tied)});
       const c = spawnTied('sleep', ['300'], { stdio: 'ignore' });
       c.on('spawn', () => console.log(c.pid)); setInterval(() => {}, 1000);`,
      );
      const pid = Number(line);
      expect(alive(pid)).toBe(true);
      // It is the command itself (setpriv executed it in place), so child.kill() reaches it.
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]).toMatch(/sleep$/);
      proc.kill('SIGKILL');
      await waitFor(() => !alive(pid), { ms: 5_000, what: 'the tied child to die' });
    },
    60_000,
  );
});
