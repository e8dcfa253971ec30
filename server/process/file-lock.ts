// An exclusive lock on a file, held by the kernel for as long as any process has the lock's open
// file description: an open-file-description lock on Linux (fcntl F_OFD_SETLK), flock elsewhere,
// through fs-native-extensions' prebuilt addon. A killed process drops it at once (no stale lock
// file to judge by pid), and a child given the descriptor (spawn's stdio) holds it with its parent,
// so the lock lasts until the last of them is gone.
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

interface LockAddon {
  tryLock(fd: number): boolean;
}

const require = createRequire(import.meta.url);
let addon: LockAddon | null | undefined;

/** The native lock, or null on a platform without a prebuilt binary (then no lock is taken). */
function lockAddon(): LockAddon | null {
  if (addon === undefined) {
    try {
      addon = require('fs-native-extensions') as LockAddon;
    } catch {
      addon = null;
    }
  }
  return addon;
}

export const lockingSupported = (): boolean => lockAddon() !== null;

export class LockBusyError extends Error {
  constructor(
    readonly file: string,
    /** The holder's pid as it wrote it into the file; null when unknown. */
    readonly holder: number | null,
  ) {
    super(`${file} is locked by ${holder ? `process ${holder}` : 'another process'}`);
    this.name = 'LockBusyError';
  }
}

export interface FileLock {
  /** The locked descriptor: pass it to a child (spawn stdio) that must hold the lock too. */
  readonly fd: number;
  readonly file: string;
  release(): void;
}

function holderOf(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the lock now, or returns null when another process holds it. */
export function tryLockFile(file: string): FileLock | null {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, 'a+');
  const native = lockAddon();
  if (native && !native.tryLock(fd)) {
    closeSync(fd);
    return null;
  }
  // Who holds it, for the message another process prints.
  ftruncateSync(fd, 0);
  writeSync(fd, `${process.pid}\n`, 0);
  let released = false;
  return {
    fd,
    file,
    release() {
      if (released) return;
      released = true;
      closeSync(fd);
    },
  };
}

/**
 * Takes the lock, waiting up to `waitMs` for its holder to let go (a restarted server whose
 * predecessor's children are still being reaped); throws LockBusyError after that.
 */
export async function lockFile(
  file: string,
  opts: { waitMs?: number; onWait?: (holder: number | null) => void } = {},
): Promise<FileLock> {
  const deadline = Date.now() + (opts.waitMs ?? 0);
  let told = false;
  for (;;) {
    const lock = tryLockFile(file);
    if (lock) return lock;
    if (Date.now() >= deadline) throw new LockBusyError(file, holderOf(file));
    if (!told) {
      told = true;
      opts.onWait?.(holderOf(file));
    }
    await sleep(200);
  }
}

/** Whether some process holds the lock on `file` (false when it does not exist). */
export function isLocked(file: string): boolean {
  let fd: number;
  try {
    // A write lock needs a descriptor open for writing.
    fd = openSync(file, 'r+');
  } catch {
    return false;
  }
  try {
    const native = lockAddon();
    if (!native) return false;
    return !native.tryLock(fd);
  } finally {
    closeSync(fd);
  }
}
