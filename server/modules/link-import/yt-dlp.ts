import { spawnTied } from '../../process/tied-spawn';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { stripControlChars } from '../../../common/text';
import { onPath } from '../media/binaries';
import { LinkError } from './link-error';

// yt-dlp (https://github.com/yt-dlp/yt-dlp) is optional: when the binary is on the server's PATH
// (or YT_DLP_PATH names it), links to web pages it understands are imported through it. It is
// found once at start; without it a page link fails with "not a media file".

export interface YtDlp {
  path: string;
  version: string;
}

const VERSION_TIMEOUT_MS = 10_000;

/** The yt-dlp binary and its version (`yt-dlp --version`), or null when there is none that runs. */
export async function detectYtDlp(configured?: string): Promise<YtDlp | null> {
  const bin = configured || onPath('yt-dlp');
  if (!bin) return null;
  const version = await new Promise<string | null>((resolve) => {
    const child = spawnTied(bin, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), VERSION_TIMEOUT_MS);
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const v = out.trim().split('\n')[0]?.trim() ?? '';
      resolve(code === 0 && v ? v.slice(0, 40) : null);
    });
  });
  return version ? { path: bin, version } : null;
}

export interface YtDlpDownload {
  /** The downloaded file (in `dir`). */
  file: string;
  /** The page's title, when yt-dlp reported one. */
  title: string | null;
}

export interface YtDlpOptions {
  /** An empty directory the file is written to. */
  dir: string;
  maxBytes: number;
  maxDurationSec: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** Bytes so far and the expected total (null while unknown). */
  onProgress(bytes: number, total: number | null): void;
}

const TAG = 'clipscribe';

/** The arguments of one download: audio only, one item, no config files, machine-readable lines. */
export function ytDlpArgs(
  url: string,
  o: Pick<YtDlpOptions, 'dir' | 'maxBytes' | 'maxDurationSec'>,
): string[] {
  return [
    '--ignore-config',
    '--no-playlist',
    '--no-cache-dir',
    '--no-part',
    '--no-mtime',
    '--newline',
    '--no-colors',
    '--progress',
    '--no-simulate',
    '--socket-timeout',
    '30',
    '--retries',
    '2',
    '--format',
    'bestaudio/best',
    '--max-filesize',
    String(o.maxBytes),
    '--match-filter',
    `duration <=? ${Math.floor(o.maxDurationSec)}`,
    '--paths',
    o.dir,
    '--output',
    'media.%(ext)s',
    '--print',
    `before_dl:${TAG}-title %(title)s`,
    '--print',
    `after_move:${TAG}-file %(filepath)s`,
    '--progress-template',
    `download:${TAG}-progress %(progress.downloaded_bytes)s %(progress.total_bytes)s %(progress.total_bytes_estimate)s`,
    '--',
    url,
  ];
}

const number = (s: string | undefined) => {
  const n = Number(s);
  return s && s !== 'NA' && Number.isFinite(n) && n >= 0 ? n : null;
};

/**
 * Downloads a page's audio with yt-dlp. Refusals come back as LinkError: too large (its own
 * --max-filesize, or more bytes than allowed while it runs), too long (its duration filter),
 * nothing found on the page, too slow.
 */
export async function downloadWithYtDlp(bin: YtDlp, url: string, o: YtDlpOptions): Promise<YtDlpDownload> {
  if (o.signal.aborted) throw o.signal.reason;
  const child = spawnTied(bin.path, ytDlpArgs(url, o), {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PYTHONUNBUFFERED: '1' },
  });
  let title: string | null = null;
  let file: string | null = null;
  let verdict: LinkError | null = null;
  let log = '';
  const stop = (err: LinkError | null) => {
    verdict ??= err;
    child.kill('SIGKILL');
  };
  const timer = setTimeout(
    () => stop(new LinkError('link_timeout', `yt-dlp took longer than ${o.timeoutMs} ms`)),
    o.timeoutMs,
  );
  const onAbort = () => stop(null);
  o.signal.addEventListener('abort', onAbort, { once: true });

  const onLine = (line: string) => {
    if (line.startsWith(`${TAG}-title `))
      title =
        stripControlChars(line.slice(TAG.length + 7))
          .trim()
          .slice(0, 200) || null;
    else if (line.startsWith(`${TAG}-file `)) file = line.slice(TAG.length + 6).trim() || null;
    else if (line.startsWith(`${TAG}-progress `)) {
      const [done, total, estimate] = line.split(' ').slice(1);
      const bytes = number(done) ?? 0;
      if (bytes > o.maxBytes) stop(new LinkError('link_too_large', 'yt-dlp went past the size limit'));
      else o.onProgress(bytes, number(total) ?? number(estimate));
    } else {
      // yt-dlp says it skipped the download (exit code 0): its limits, in its own words.
      if (/larger than max-filesize/i.test(line))
        verdict ??= new LinkError('link_too_large', 'larger than --max-filesize');
      else if (/does not pass filter/i.test(line))
        verdict ??= new LinkError('link_too_long', 'longer than the duration filter');
      log = (log + line + '\n').slice(-2000);
    }
  };
  const lines = (stream: NodeJS.ReadableStream) => {
    let rest = '';
    stream.on('data', (c: Buffer) => {
      rest += c.toString('utf8');
      const parts = rest.split(/\r?\n|\r/);
      rest = parts.pop() ?? '';
      parts.forEach(onLine);
    });
    stream.on('end', () => rest && onLine(rest));
  };
  lines(child.stdout);
  lines(child.stderr);

  const code = await new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(-1));
    child.on('close', (c) => resolve(c));
  });
  clearTimeout(timer);
  o.signal.removeEventListener('abort', onAbort);
  if (o.signal.aborted) throw o.signal.reason;
  if (verdict) throw verdict;
  const found = file ?? (await readdir(o.dir).catch(() => [] as string[])).map((n) => path.join(o.dir, n))[0];
  if (code !== 0 || !found) {
    throw new LinkError('link_page_failed', `yt-dlp exited with ${code}: ${log.trim().slice(-500)}`);
  }
  // Only a file inside our directory is ever used, whatever yt-dlp printed.
  const resolved = path.resolve(o.dir, found);
  if (!resolved.startsWith(path.resolve(o.dir) + path.sep)) {
    throw new LinkError('link_page_failed', 'yt-dlp wrote outside its directory');
  }
  return { file: resolved, title };
}
