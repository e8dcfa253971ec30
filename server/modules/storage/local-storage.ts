import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ByteRange, Storage } from './storage';

/** Media on local disk under `root` (DATA_DIR: keys start with media/, so ./data/media). */
export function createLocalStorage(root: string): Storage {
  const resolve = (key: string) => {
    const full = path.resolve(root, key);
    // Keys come from our own code, but a path outside the root must never be reachable.
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error(`Bad storage key: ${key}`);
    return full;
  };

  return {
    kind: 'local',
    async adoptFile(localPath, key) {
      const dest = resolve(key);
      await mkdir(path.dirname(dest), { recursive: true });
      try {
        await rename(localPath, dest);
      } catch (err) {
        // Another file system: copy, then remove the source.
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        await copyFile(localPath, dest);
        await unlink(localPath);
      }
    },
    async putFile(localPath, key) {
      const dest = resolve(key);
      await mkdir(path.dirname(dest), { recursive: true });
      await rm(dest, { force: true });
      try {
        await link(localPath, dest);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
        await copyFile(localPath, dest);
      }
    },
    async size(key) {
      const file = resolve(key);
      try {
        return (await stat(file)).size;
      } catch {
        return null;
      }
    },
    async read(key, range?: ByteRange): Promise<Readable> {
      return createReadStream(resolve(key), range ? { start: range.start, end: range.end } : {});
    },
    async withLocalFile(key, fn) {
      return fn(resolve(key));
    },
    async delete(key) {
      await rm(resolve(key), { force: true });
    },
    async deletePrefix(prefix) {
      await rm(resolve(prefix), { recursive: true, force: true });
    },
  };
}
