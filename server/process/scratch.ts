// Temporary files (decoded audio, copies of stored media) live in one folder per process,
// `<tmp>/clipscribe-scratch-<pid>-XXXXXX`, locked for the life of the process. A process killed
// mid-job leaves its folder behind unlocked: the next process to sweep (every worker at start and
// hourly) removes it. Gigabytes of PCM never pile up in /tmp.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isLocked, lockingSupported, tryLockFile, type FileLock } from './file-lock';

const PREFIX = 'clipscribe-scratch-';
const LOCK = '.lock';

export interface Scratch {
  /** This process's folder: make job folders inside it. */
  readonly dir: string;
  /** Removes the folders of processes that are gone; returns how many. */
  sweep(): Promise<number>;
  /** Removes this process's folder (a clean exit). */
  close(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the folder `name` under `root` belongs to a process that is gone. */
function orphaned(root: string, name: string): boolean {
  if (lockingSupported()) {
    const lockFile = path.join(root, name, LOCK);
    // No lock file yet: a process between creating its folder and locking it, unless long ago.
    if (!existsSync(lockFile)) return Date.now() - statSync(path.join(root, name)).mtimeMs > 10 * 60_000;
    return !isLocked(lockFile);
  }
  // Without the native lock: by the pid in the name (pid reuse only delays a removal).
  const pid = Number(/^clipscribe-scratch-(\d+)-/.exec(name)?.[1]);
  return !pid || !alive(pid);
}

export function createScratch(root: string = os.tmpdir()): Scratch {
  const dir = mkdtempSync(path.join(root, `${PREFIX}${process.pid}-`));
  let lock: FileLock | null = tryLockFile(path.join(dir, LOCK));
  return {
    dir,
    async sweep() {
      let removed = 0;
      let names: string[];
      try {
        names = readdirSync(root).filter((n) => n.startsWith(PREFIX) && path.join(root, n) !== dir);
      } catch {
        return 0;
      }
      for (const name of names) {
        try {
          if (!orphaned(root, name)) continue;
        } catch {
          continue; // removed meanwhile
        }
        await rm(path.join(root, name), { recursive: true, force: true });
        removed++;
      }
      return removed;
    },
    close() {
      lock?.release();
      lock = null;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
