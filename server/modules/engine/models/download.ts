// One model file fetched over HTTP into its final place: resumable (an interrupted download goes on
// from where it stopped, with a Range request guarded by If-Range), SHA-1-verified, and atomic (the
// bytes live in `<file>.part` until they are complete and verified, then one rename).
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export type DownloadErrorCode =
  /** The server answered with an error status (404, 403, 5xx …). */
  | 'http'
  /** No answer: DNS, refused or reset connection, timeout. */
  | 'network'
  /** The body ended before Content-Length bytes. */
  | 'incomplete'
  /** The bytes are not the published file. */
  | 'checksum'
  /** Another process is downloading the same file. */
  | 'busy'
  /** The disk refused: full, read-only, permissions. */
  | 'io';

export class DownloadError extends Error {
  constructor(
    readonly code: DownloadErrorCode,
    message: string,
    /** Whether trying again later may succeed. */
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

export interface DownloadProgress {
  bytes: number;
  /** Size of the whole file when known. */
  total: number | null;
}

export interface DownloadOptions {
  url: string;
  /** The final path; the partial download sits beside it. */
  dest: string;
  /** Expected SHA-1 (lowercase hex); null accepts any bytes. */
  sha1: string | null;
  /** Expected SHA-256 (lowercase hex), checked as well when given: the quantized models' only published digest. */
  sha256?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  fetch?: typeof fetch;
}

export interface DownloadResult {
  sha1: string;
  sha256: string | null;
  bytes: number;
  /** Bytes that were already on disk from an earlier, interrupted attempt. */
  resumedFrom: number;
}

/** What identifies the file a partial download belongs to, so a resume never mixes two files. */
interface PartMeta {
  url: string;
  etag: string | null;
  lastModified: string | null;
  total: number | null;
}

export const partPath = (dest: string) => `${dest}.part`;
const metaPath = (dest: string) => `${dest}.part.json`;
const lockPath = (dest: string) => `${dest}.lock`;

async function readMeta(dest: string): Promise<PartMeta | null> {
  try {
    return JSON.parse(await readFile(metaPath(dest), 'utf8')) as PartMeta;
  } catch {
    return null;
  }
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

/** SHA-1 always, SHA-256 when one is expected: both fed in one pass. */
class Digests {
  private readonly sha1: Hash = createHash('sha1');
  private readonly sha256: Hash | null;
  constructor(withSha256: boolean) {
    this.sha256 = withSha256 ? createHash('sha256') : null;
  }
  update(chunk: Uint8Array): void {
    this.sha1.update(chunk);
    this.sha256?.update(chunk);
  }
  digest(): { sha1: string; sha256: string | null } {
    return { sha1: this.sha1.digest('hex'), sha256: this.sha256?.digest('hex') ?? null };
  }
}

async function hashFile(file: string, hash: Digests): Promise<void> {
  await pipeline(
    createReadStream(file),
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        hash.update(chunk);
        cb();
      },
    }),
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Files this process is downloading (the lock file's pid cannot tell two callers of one process apart). */
const active = new Set<string>();

/** One downloader per file across processes (the server and `npm run model:download`). */
async function takeLock(dest: string): Promise<() => Promise<void>> {
  const file = lockPath(dest);
  if (active.has(file)) {
    throw new DownloadError('busy', `${path.basename(dest)} is already being downloaded`, true);
  }
  active.add(file);
  const release = async () => {
    active.delete(file);
    await rm(file, { force: true });
  };
  for (let tries = 0; tries < 2; tries++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        active.delete(file);
        throw err;
      }
      const owner = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (owner && owner !== process.pid && isAlive(owner)) {
        active.delete(file);
        throw new DownloadError(
          'busy',
          `${path.basename(dest)} is being downloaded by process ${owner}`,
          true,
        );
      }
      // Left behind by a process that died: take it over.
      await rm(file, { force: true });
    }
  }
  active.delete(file);
  throw new DownloadError('busy', `cannot lock ${file}`, true);
}

const ioError = (err: unknown, what: string) =>
  new DownloadError('io', `${what}: ${(err as Error).message}`, false);

/**
 * Downloads `url` to `dest`. Throws DownloadError; a partial file is kept for the next attempt
 * except when its bytes proved wrong (checksum) or the server sent another file.
 */
export async function downloadFile(opts: DownloadOptions): Promise<DownloadResult> {
  const { dest } = opts;
  const doFetch = opts.fetch ?? fetch;
  const part = partPath(dest);
  try {
    await mkdir(path.dirname(dest), { recursive: true });
  } catch (err) {
    throw ioError(err, `cannot create ${path.dirname(dest)}`);
  }
  const unlock = await takeLock(dest).catch((err: unknown) => {
    throw err instanceof DownloadError ? err : ioError(err, 'cannot lock the download');
  });
  try {
    // Resume only a partial download of the same URL whose server identity we know.
    const meta = await readMeta(dest);
    let offset = meta && meta.url === opts.url ? await sizeOf(part) : 0;
    if (offset === 0) await rm(part, { force: true });
    let hash = new Digests(!!opts.sha256);
    if (offset > 0) await hashFile(part, hash);
    let resumedFrom = offset;

    const headers: Record<string, string> = { ...opts.headers };
    const validator = meta?.etag ?? meta?.lastModified;
    if (offset > 0) {
      headers.range = `bytes=${offset}-`;
      if (validator) headers['if-range'] = validator;
    }
    let res: Response;
    try {
      res = await doFetch(opts.url, { headers, redirect: 'follow', signal: opts.signal });
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      const cause = (err as { cause?: Error }).cause?.message ?? (err as Error).message;
      throw new DownloadError('network', `cannot reach ${opts.url}: ${cause}`, true);
    }

    let total: number | null = null;
    if (res.status === 416 && offset > 0 && meta?.total === offset) {
      // Everything was already here: the previous attempt stopped between the body and the rename.
      await res.body?.cancel();
      total = offset;
    } else if (res.status === 206 && offset > 0) {
      const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(res.headers.get('content-range') ?? '');
      if (!range || Number(range[1]) !== offset) {
        await res.body?.cancel();
        await discardPart(dest);
        throw new DownloadError('http', `${opts.url} answered an unexpected range; starting over`, true, 206);
      }
      total = range[3] === '*' ? null : Number(range[3]);
    } else if (res.ok) {
      // A full body (no resume, or the file changed so If-Range sent all of it): start from zero.
      if (offset > 0) {
        offset = 0;
        resumedFrom = 0;
        hash = new Digests(!!opts.sha256);
      }
      const length = Number(res.headers.get('content-length'));
      total = Number.isFinite(length) && length > 0 ? length : null;
    } else {
      await res.body?.cancel();
      if (res.status === 416) await discardPart(dest);
      const retryable = res.status === 408 || res.status === 429 || res.status >= 500 || res.status === 416;
      throw new DownloadError('http', `${opts.url} answered HTTP ${res.status}`, retryable, res.status);
    }

    let bytes = offset;
    if (res.status !== 416) {
      const fresh = offset === 0;
      try {
        await writeFile(
          metaPath(dest),
          JSON.stringify({
            url: opts.url,
            etag: res.headers.get('etag'),
            lastModified: res.headers.get('last-modified'),
            total,
          } satisfies PartMeta),
        );
      } catch (err) {
        throw ioError(err, `cannot write beside ${dest}`);
      }
      if (!res.body) throw new DownloadError('incomplete', `${opts.url} sent no body`, true);
      opts.onProgress?.({ bytes, total });
      const out = createWriteStream(part, { flags: fresh ? 'w' : 'a' });
      const meter = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          hash.update(chunk);
          bytes += chunk.byteLength;
          opts.onProgress?.({ bytes, total });
          controller.enqueue(chunk);
        },
      });
      try {
        await pipeline(Readable.fromWeb(res.body.pipeThrough(meter) as never), out, { signal: opts.signal });
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOSPC' || code === 'EACCES' || code === 'EROFS' || code === 'EDQUOT')
          throw ioError(err, `cannot write ${part}`);
        throw new DownloadError(
          'incomplete',
          `the download of ${opts.url} broke off after ${bytes} bytes: ${(err as Error).message}`,
          true,
        );
      }
      if (total !== null && bytes !== total) {
        throw new DownloadError('incomplete', `got ${bytes} of ${total} bytes from ${opts.url}`, true);
      }
    }
    return await finish(opts, hash.digest(), bytes, resumedFrom);
  } finally {
    await unlock();
  }
}

async function discardPart(dest: string) {
  await rm(partPath(dest), { force: true });
  await rm(metaPath(dest), { force: true });
}

async function finish(
  opts: DownloadOptions,
  { sha1, sha256 }: { sha1: string; sha256: string | null },
  bytes: number,
  resumedFrom: number,
): Promise<DownloadResult> {
  const wrong =
    opts.sha1 && sha1 !== opts.sha1
      ? `SHA-1 ${sha1}, expected ${opts.sha1}`
      : opts.sha256 && sha256 !== opts.sha256
        ? `SHA-256 ${sha256}, expected ${opts.sha256}`
        : null;
  if (wrong) {
    await discardPart(opts.dest);
    throw new DownloadError(
      'checksum',
      `${path.basename(opts.dest)} from ${opts.url} has ${wrong}; nothing was saved`,
      false,
    );
  }
  const part = partPath(opts.dest);
  try {
    // Durable before it becomes visible: a crash never leaves a truncated model under its real name.
    const handle = await open(part, 'r+');
    await handle.sync();
    await handle.close();
    await rename(part, opts.dest);
    await rm(metaPath(opts.dest), { force: true });
  } catch (err) {
    throw ioError(err, `cannot move the model into ${opts.dest}`);
  }
  return { sha1, sha256, bytes, resumedFrom };
}
