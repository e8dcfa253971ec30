// The model arrives by itself: a process that runs transcription jobs with the local engine and no
// model file fetches the configured one in the background as soon as it starts (resumable,
// checksum-verified, atomic: ./download.ts), retrying with backoff. Jobs wait for it, seeing the
// download's progress, and start by themselves once it is there. Operators read what went wrong
// and what to do in the log; users only ever see a translated message.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '../../../logger';
import { retryDelayMs } from '../../jobs/queue';
import { EngineError } from '../types';
import { expectedBytes, expectedSha1, expectedSha256, modelUrl } from './catalogue';
import { downloadFile, DownloadError, partPath } from './download';

export type ModelState =
  | { state: 'checking' }
  | { state: 'ready' }
  | { state: 'downloading'; percent: number | null; bytes: number; total: number | null }
  | { state: 'retrying'; attempt: number; error: string; retryAt: number }
  /** Automatic download is off and the file is missing. */
  | { state: 'missing' };

export interface ModelProvisionerOptions {
  /** The model's name in the table (base, small …). */
  name: string;
  /** Where the model must be. */
  path: string;
  /** WHISPER_MODEL_BASE_URL: the repository or a mirror. */
  baseUrl?: string;
  /** WHISPER_MODEL_SHA1: the checksum of a custom file, overriding the table. */
  sha1?: string | null;
  /** The SHA-256 the file must have (another model's table); overrides Whisper's table. */
  sha256?: string | null;
  /** The file's size in bytes when known (default: Whisper's table, unless `sha1` overrides it). */
  bytes?: number | null;
  /**
   * A structural check for a file without a known checksum (whisper.cpp's headers): the reason
   * it is not a usable model, or null.
   */
  check?: (file: string) => string | null;
  /**
   * How a file already there is judged: 'verify' (default) by size and checksum, for the file this
   * server fetches itself; 'structure' by `check` only, for a file the operator named
   * (WHISPER_MODEL), which may be their own model under a catalogue name.
   */
  existing?: 'verify' | 'structure';
  /** The setting that turns the automatic download off, named in the log (default WHISPER_MODEL_AUTO_DOWNLOAD). */
  autoDownloadSetting?: string;
  /** WHISPER_MODEL_AUTO_DOWNLOAD. */
  autoDownload: boolean;
  /** Another model than Whisper's (speaker diarization): where it is fetched from, as a whole URL. */
  url?: string;
  /** What the model is called in the log (default 'Whisper model'). */
  label?: string;
  /** What an operator can do when it does not arrive (default: the Whisper settings). */
  advice?: string;
  headers?: Record<string, string>;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Waits between attempts; the last one repeats (default 10 s, 30 s, 2 min, 10 min). */
  retryDelaysMs?: number[];
  /** Failed attempts after which waiting jobs stop waiting (and are retried later); default 3. */
  jobsWaitAttempts?: number;
  fetch?: typeof fetch;
  /**
   * Queues the download as a `download-model` job (the embedded queue: durable, retried with the
   * queue's backoff, run by the downloads lane in this process). Without it, this process retries
   * by itself (the distributed mode: every worker needs the model on its own disk).
   */
  enqueue?: (delayMs: number) => Promise<void>;
}

export interface ModelProvisioner {
  /** The model's name in the table. */
  readonly name: string;
  /** Starts the background check and download (idempotent). */
  start(): void;
  /** One download attempt, for the download-model job; throws DownloadError when it fails. */
  runOnce(signal: AbortSignal): Promise<void>;
  /** The job gave up (its attempts are used): queue a new one later. */
  gaveUp(): void;
  state(): ModelState;
  /** Resolves once the model file is there; reports the download (0–100) meanwhile. */
  ready(opts?: { signal?: AbortSignal; onProgress?: (percent: number) => void }): Promise<void>;
  close(): void;
}

const MB = 1024 * 1024;
/** While another process downloads the model, how often this one looks whether it is there. */
const BUSY_POLL_MS = 2_000;

/** Beside a verified model: its size, time and digests, so a restart need not read it again. */
const exists = (file: string) =>
  stat(file).then(
    (s) => s.isFile(),
    () => false,
  );

const verifiedPath = (file: string) => `${file}.verified.json`;
interface VerifiedMark {
  size: number;
  mtimeMs: number;
  sha1: string | null;
  sha256: string | null;
}

async function digests(file: string, withSha256: boolean): Promise<{ sha1: string; sha256: string | null }> {
  const sha1 = createHash('sha1');
  const sha256 = withSha256 ? createHash('sha256') : null;
  await pipeline(createReadStream(file), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      sha1.update(chunk);
      sha256?.update(chunk);
    }
  });
  return { sha1: sha1.digest('hex'), sha256: sha256?.digest('hex') ?? null };
}

export function createModelProvisioner(opts: ModelProvisionerOptions): ModelProvisioner {
  const delays = opts.retryDelaysMs ?? [10_000, 30_000, 120_000, 600_000];
  const waitAttempts = opts.jobsWaitAttempts ?? 3;
  const file = path.basename(opts.path);
  const url = opts.url ?? modelUrl(opts.name, opts.baseUrl).replace(/[^/]+$/, file);
  const label = opts.label ?? 'Whisper model';
  const sha1 = expectedSha1(opts.name, opts.sha1);
  const sha256 = opts.sha256 !== undefined ? opts.sha256 : expectedSha256(opts.name, opts.sha1);
  const bytes = opts.bytes !== undefined ? opts.bytes : expectedBytes(opts.name, opts.sha1);
  /** The file this process found good (size and time), so a job does not check it again. */
  let good: { size: number; mtimeMs: number } | null = null;
  let busySince = 0;
  const listeners = new Set<() => void>();
  let current: ModelState = { state: 'checking' };
  let started: Promise<void> | null = null;
  let closed = false;
  let failures = 0;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;

  const set = (next: ModelState) => {
    current = next;
    for (const listener of [...listeners]) listener();
  };

  const advice = () =>
    opts.advice ??
    `What to do: give this server access to ${new URL(url).origin}, or set WHISPER_MODEL_BASE_URL to a mirror ` +
      `that serves ${file}, or put the file at ${opts.path} yourself (npm run model:download -- ${opts.name}); ` +
      `for a custom file set WHISPER_MODEL_SHA1 to its SHA-1.`;

  /**
   * Whether the file is there and is the model: its size, its checksum (read once, then
   * remembered beside it by size and time) or, without one, its structure. A truncated or damaged
   * file (a disk that filled up, a copy cut short) is removed, so that it is fetched again instead
   * of failing every job. Returns false when there is no usable file.
   */
  let judging: Promise<boolean> | null = null;
  /** One judgement at a time (start() and a waiting job ask together). */
  const usable = () => (judging ??= judge().finally(() => (judging = null)));

  async function judge(): Promise<boolean> {
    const info = await stat(opts.path).catch(() => null);
    if (!info?.isFile()) return false;
    if (good && good.size === info.size && good.mtimeMs === info.mtimeMs) return true;
    let reason: string | null = null;
    const byTable = opts.existing !== 'structure';
    if (byTable && bytes !== null && info.size !== bytes) {
      reason = `${info.size} bytes where the model has ${bytes}`;
    } else if (byTable && (sha1 || sha256)) {
      const mark = (await readFile(verifiedPath(opts.path), 'utf8')
        .then((t) => JSON.parse(t) as VerifiedMark)
        .catch(() => null)) as VerifiedMark | null;
      const known =
        mark?.size === info.size &&
        mark.mtimeMs === info.mtimeMs &&
        (!sha1 || mark.sha1 === sha1) &&
        (!sha256 || mark.sha256 === sha256);
      if (!known) {
        const got = await digests(opts.path, !!sha256);
        if (sha1 && got.sha1 !== sha1) reason = `its SHA-1 is ${got.sha1}, the model's is ${sha1}`;
        else if (sha256 && got.sha256 !== sha256)
          reason = `its SHA-256 is ${got.sha256}, the model's is ${sha256}`;
        else await remember(info, got);
      }
    } else if (opts.check) {
      reason = opts.check(opts.path);
    }
    if (reason === null) {
      good = { size: info.size, mtimeMs: info.mtimeMs };
      return true;
    }
    good = null;
    if (!opts.autoDownload) {
      opts.logger.error(
        { model: opts.name, path: opts.path, reason },
        `The ${label} at ${opts.path} is damaged (${reason}) and ${opts.autoDownloadSetting ?? 'WHISPER_MODEL_AUTO_DOWNLOAD'} is off: ` +
          `jobs that need it fail until it is replaced. Run: npm run model:download -- ${opts.name}.`,
      );
      return false;
    }
    // Moved aside, not deleted: the bytes stay for an operator to look at (one copy is kept).
    opts.logger.warn(
      { model: opts.name, path: opts.path, reason, keptAt: `${opts.path}.damaged` },
      `The ${label} at ${opts.path} is damaged (${reason}): it is moved aside and fetched again.`,
    );
    await rename(opts.path, `${opts.path}.damaged`).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    await rm(verifiedPath(opts.path), { force: true });
    return false;
  }

  async function remember(
    info: { size: number; mtimeMs: number },
    got: { sha1: string; sha256: string | null },
  ) {
    const mark: VerifiedMark = { size: info.size, mtimeMs: info.mtimeMs, ...got };
    await writeFile(verifiedPath(opts.path), JSON.stringify(mark)).catch(() => undefined);
  }

  const becameReady = () => {
    if (current.state === 'ready') return;
    const waited = busySince ? Math.round((Date.now() - busySince) / 1000) : null;
    busySince = 0;
    opts.logger.info({ model: opts.name, path: opts.path, waitedSec: waited }, `${label} ready`);
    set({ state: 'ready' });
  };

  /** Whether the model is there (ready) or will not come (missing); false: a download is needed. */
  async function settled(): Promise<boolean> {
    if (await usable()) {
      becameReady();
      return true;
    }
    if (!opts.autoDownload) {
      if (!(await exists(opts.path)))
        opts.logger.error(
          { model: opts.name, path: opts.path },
          `The ${label} is missing and ${opts.autoDownloadSetting ?? 'WHISPER_MODEL_AUTO_DOWNLOAD'} is off: jobs that need it fail until it is there. ` +
            `Run: npm run model:download -- ${opts.name}${opts.autoDownloadSetting ? '' : ' (or set WHISPER_MODEL to the file)'}.`,
        );
      set({ state: 'missing' });
      return true;
    }
    return false;
  }

  /**
   * Another process (a second worker on the same DATA_DIR, `npm run model:download`) holds the
   * download: wait for its file rather than fight over it, and say so once.
   */
  function waitForOther(message: string) {
    if (!busySince) {
      busySince = Date.now();
      opts.logger.info(
        { model: opts.name, path: opts.path },
        `${message}: this process waits for it and says when the ${label} is ready.`,
      );
    }
    void stat(partPath(opts.path))
      .then((s) => s.size)
      .catch(() => 0)
      .then((partBytes) => {
        if (current.state !== 'ready')
          set({
            state: 'downloading',
            percent: bytes ? Math.min(100, Math.floor((partBytes / bytes) * 1000) / 10) : null,
            bytes: partBytes,
            total: bytes,
          });
      });
    timer = setTimeout(() => void attempt(), BUSY_POLL_MS);
    timer.unref();
  }

  /** The process's own retry loop (without a queue). */
  async function attempt(): Promise<void> {
    if (closed || (await settled())) return;
    try {
      await tryDownload(controller.signal);
    } catch (err) {
      if (closed || controller.signal.aborted) return;
      if (err instanceof DownloadError && err.code === 'busy') return waitForOther(err.message);
      // Logged by tryDownload; try again after the backoff.
      const delay = delays[Math.min(failures - 1, delays.length - 1)]!;
      timer = setTimeout(() => void attempt(), delay);
      timer.unref();
    }
  }

  /** One download; on failure logs the cause and what to do, and throws. */
  async function tryDownload(signal: AbortSignal): Promise<void> {
    if (await usable()) return becameReady();
    opts.logger.info({ model: opts.name, url, dest: opts.path }, `downloading the ${label}`);
    set({ state: 'downloading', percent: null, bytes: 0, total: null });
    let lastLog = 0;
    try {
      const result = await downloadFile({
        url,
        dest: opts.path,
        sha1,
        sha256,
        headers: opts.headers,
        signal: AbortSignal.any([signal, controller.signal]),
        fetch: opts.fetch,
        onProgress: ({ bytes, total }) => {
          const percent = total ? Math.min(100, Math.floor((bytes / total) * 1000) / 10) : null;
          if (current.state === 'downloading' && current.percent === percent && current.bytes === bytes)
            return;
          set({ state: 'downloading', percent, bytes, total });
          const now = Date.now();
          if (now - lastLog >= 10_000) {
            lastLog = now;
            opts.logger.info(
              {
                model: opts.name,
                percent,
                mb: Math.round(bytes / MB),
                totalMb: total ? Math.round(total / MB) : null,
              },
              `${label} download progress`,
            );
          }
        },
      });
      failures = 0;
      busySince = 0;
      const info = await stat(opts.path);
      good = { size: info.size, mtimeMs: info.mtimeMs };
      if (sha1 || sha256) await remember(info, { sha1: result.sha1, sha256: result.sha256 });
      opts.logger.info(
        {
          model: opts.name,
          path: opts.path,
          sha1: result.sha1,
          verified: !!(sha1 || sha256),
          resumedFromMb: Math.round(result.resumedFrom / MB),
        },
        sha1 || sha256
          ? `${label} downloaded and verified`
          : `${label} downloaded (no published checksum to verify)`,
      );
      set({ state: 'ready' });
    } catch (err) {
      if (closed || signal.aborted || controller.signal.aborted) {
        if (current.state === 'downloading') set({ state: 'checking' });
        throw err;
      }
      // Not a failure: another process is fetching the same file (the caller waits for it).
      if (err instanceof DownloadError && err.code === 'busy') throw err;
      failures++;
      const message = err instanceof Error ? err.message : String(err);
      const delay = opts.enqueue
        ? retryDelayMs(failures)
        : delays[Math.min(failures - 1, delays.length - 1)]!;
      const what =
        err instanceof DownloadError && err.code === 'checksum'
          ? `The file downloaded from ${url} is not the published ${file} (${message}).`
          : `Could not download the ${label} from ${url}: ${message}.`;
      opts.logger.error(
        { model: opts.name, attempt: failures, retryInSec: Math.round(delay / 1000) },
        `${what} Trying again in ${Math.round(delay / 1000)} s. ${advice()}`,
      );
      set({ state: 'retrying', attempt: failures, error: message, retryAt: Date.now() + delay });
      throw err;
    }
  }

  const enqueue = (delayMs: number) =>
    opts.enqueue!(delayMs).catch((err: Error) =>
      opts.logger.error({ err: err.message }, `could not queue the ${label} download`),
    );

  function start() {
    started ??= (async () => {
      if (opts.enqueue) {
        if (!(await settled())) await enqueue(0);
      } else {
        await attempt();
      }
    })().catch((err: unknown) => {
      opts.logger.error({ err }, `${label} provisioning failed`);
    });
  }

  return {
    name: opts.name,
    start,
    async runOnce(signal) {
      if (closed || (await settled())) return;
      await tryDownload(signal);
    },
    gaveUp() {
      if (closed || !opts.enqueue) return;
      const delay = delays[delays.length - 1]!;
      opts.logger.error(
        { model: opts.name, retryInSec: Math.round(delay / 1000) },
        `The ${label} download job gave up; a new one is queued in ${Math.round(delay / 1000)} s. ${advice()}`,
      );
      void enqueue(delay);
    },
    state: () => current,
    async ready({ signal, onProgress } = {}) {
      if (await usable()) return becameReady();
      start();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (signal?.aborted)
            return finish(() => reject(new EngineError('canceled', 'transcription canceled')));
          switch (current.state) {
            case 'ready':
              return finish(resolve);
            case 'missing':
              return finish(() =>
                reject(
                  new EngineError(
                    'model_missing',
                    `${label} not found at ${opts.path} and automatic download is off. Download it with: npm run model:download -- ${opts.name}`,
                  ),
                ),
              );
            case 'retrying':
              if (current.attempt >= waitAttempts)
                return finish(() =>
                  reject(
                    new EngineError(
                      'model_unavailable',
                      `the ${label} could not be downloaded yet (${current.state === 'retrying' ? current.error : ''})`,
                      true,
                    ),
                  ),
                );
              return;
            case 'downloading':
              if (current.percent !== null) onProgress?.(current.percent);
              return;
            case 'checking':
              return;
          }
        };
        const finish = (fn: () => void) => {
          listeners.delete(check);
          signal?.removeEventListener('abort', check);
          fn();
        };
        listeners.add(check);
        signal?.addEventListener('abort', check, { once: true });
        // A file put in place by hand (or by another process) counts too.
        void usable().then((there) => {
          if (there) becameReady();
          else check();
        });
      });
    },
    close() {
      closed = true;
      clearTimeout(timer);
      controller.abort();
      for (const listener of [...listeners]) listener();
      listeners.clear();
    },
  };
}
