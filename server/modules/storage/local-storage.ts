import { createReadStream } from 'node:fs';
import { constants } from 'node:fs';
import { access, copyFile, link, mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ByteRange, Storage, StoredObject } from './storage';

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
    async *list(prefix) {
      // Keys are paths: walk the folder the prefix names (or its parent, for a partial name).
      const base = prefix.endsWith('/') ? prefix : prefix.slice(0, prefix.lastIndexOf('/') + 1);
      const walk = async function* (rel: string): AsyncGenerator<StoredObject> {
        const entries = await readdir(path.resolve(root, rel), { withFileTypes: true }).catch(() => []);
        for (const e of entries) {
          const key = `${rel}${e.name}`;
          if (e.isDirectory()) yield* walk(`${key}/`);
          else if (e.isFile() && key.startsWith(prefix)) {
            const info = await stat(path.resolve(root, key)).catch(() => null);
            if (info) yield { key, size: info.size, modified: info.mtime };
          }
        }
      };
      yield* walk(base);
    },
    async check() {
      await mkdir(root, { recursive: true });
      await access(root, constants.W_OK);
    },
    async deletePrefix(prefix) {
      await rm(resolve(prefix), { recursive: true, force: true });
    },
  };
}
