import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { and, eq } from 'drizzle-orm';
import { AdmissionCode } from '../../../common/error-codes';
import { limitsFor } from '../../../common/ranks';
import {
  transcripts,
  users,
  workspaceMembers,
  workspaces,
  type Transcript,
  type User,
} from '../../db/schema';
import { can } from '../../../common/workspace-permissions';
import { workspacePlanById } from '../workspaces/plan';
import { ApiError } from '../errors';
import type { JobMap } from '../jobs/job-map';
import { JobInterruptedError, RetryableError, type JobContext } from '../jobs/queue';
import { MediaError } from '../media/media-error';
import { probeMedia } from '../media/probe';
import { OutboundError } from '../outbound/destination';
import { safeFetch, type OutboundResponse } from '../outbound/safe-fetch';
import { mediaKey } from '../storage/storage';
import { assertAdmission } from '../transcription/admission';
import { queueTranscription } from '../transcription/transcribe-jobs';
import { nameFromFile } from '../transcription/names';
import type { LinkImportDeps } from './deps';
import { LinkError, type LinkFailureCode } from './link-error';
import { filenameFromDisposition, filenameFromUrl } from './names';
import { assertImportableUrl } from './start';
import { downloadWithYtDlp } from './yt-dlp';

const MB = 1024 * 1024;
const DEFAULT_IDLE_MS = 60_000;

/** Web pages: yt-dlp's work when it is installed, else not something we can transcribe. */
const PAGE_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** Content types a media file is served with besides audio/* and video/* (or none at all). */
const MEDIA_TYPES = new Set([
  '',
  'application/octet-stream',
  'binary/octet-stream',
  'application/ogg',
  'application/mp4',
  'application/x-matroska',
  'application/x-mpegurl',
  'application/vnd.rn-realmedia',
]);

export function isMediaContentType(type: string): boolean {
  return type.startsWith('audio/') || type.startsWith('video/') || MEDIA_TYPES.has(type);
}

interface Downloaded {
  file: string;
  size: number;
  /** The file's own name (Content-Disposition, the URL's last segment), if any. */
  filename: string | null;
  /** A page's title (yt-dlp), if any. */
  title: string | null;
}

type Progress = (bytes: number, total: number | null) => void;

/**
 * One link import's download, start to end: fetch the link through the outbound guard (every
 * address and redirect checked) with the plan's size limit enforced while the bytes arrive, hand
 * a web page to yt-dlp when it is installed, probe the file for its length against the plan,
 * store it as the transcript's media and queue the transcription. A failure leaves the
 * transcript failed with its reason (errors.media.*); network trouble is tried again first.
 */
export async function runLinkImport(
  deps: LinkImportDeps,
  job: JobMap['import-link'],
  ctx: JobContext,
): Promise<void> {
  const t = deps.transcription;
  const id = job.transcriptId;
  const [row] = await t.db.select().from(transcripts).where(eq(transcripts.id, id));
  // Canceled, deleted or already downloaded: nothing to do. A job that finds its transcript
  // 'processing' is a run the worker did not finish (a crash): it starts over.
  const waiting = row?.status === 'queued' || row?.status === 'processing';
  if (!row || !waiting || row.source !== 'link' || !row.sourceUrl || row.mediaKey) return;
  // Decision 0042: the download runs as the member who asked for it. Removed from the workspace,
  // no longer allowed to add recordings there, or their account deleted meanwhile: it ends as
  // failed with that reason (an editor's "Try again" makes it theirs), never queued forever.
  const user = await requesterStillMay(deps, row);
  if (!user) return void (await failQueued(deps, row, 'link_requester_gone'));
  const claimed = await t.db
    .update(transcripts)
    .set({ status: 'processing', stage: 'downloading', progress: 0, errorCode: null, errorDetail: null })
    .where(and(eq(transcripts.id, id), eq(transcripts.status, row.status)))
    .returning({ id: transcripts.id });
  if (claimed.length === 0) return;
  t.events.publish(id, { type: 'status', status: 'processing', progress: 0, stage: 'downloading' });

  await mkdir(deps.workDir, { recursive: true });
  const dir = await mkdtemp(path.join(deps.workDir, 'link-'));
  let shown = 0;
  let lastSave = 0;
  const progress: Progress = (bytes, total) => {
    if (!total || total <= 0) return;
    const percent = Math.min(99, Math.floor((bytes * 100) / total));
    if (percent <= shown) return;
    shown = percent;
    t.events.publish(id, { type: 'status', status: 'processing', progress: percent, stage: 'downloading' });
    if (Date.now() - lastSave < (deps.saveIntervalMs ?? 1_000)) return;
    lastSave = Date.now();
    void t.db
      .update(transcripts)
      .set({ progress: percent })
      .where(and(eq(transcripts.id, id), eq(transcripts.status, 'processing')))
      .catch((err: Error) => t.logger.warn({ err: err.message }, 'progress save failed'));
  };

  try {
    // The workspace's plan (decision 0041), not the requester's own.
    const { limits } = (await workspacePlanById(t.db, row.workspaceId)) ?? { limits: limitsFor('Free') };
    const got = await fetchMedia(deps, row.sourceUrl, dir, {
      maxBytes: limits.max_file_mb * MB,
      maxDurationSec: limits.max_duration_minutes * 60,
      signal: ctx.signal,
      progress,
    });
    if (got.size === 0) throw new MediaError('empty_file', 'The link gave an empty file');
    const info = await probeMedia(t.ffprobe, got.file);
    await admitDownloaded(deps, user, row, got.size, info.durationSec);

    const key = mediaKey(user.id, id);
    await t.storage.adoptFile(got.file, key);
    const named = got.title ?? (got.filename ? nameFromFile(got.filename) : null);
    const stored = await t.db
      .update(transcripts)
      .set({
        mediaKey: key,
        mediaName: (got.filename ?? row.mediaName ?? named ?? 'media').slice(0, 255),
        mediaType: info.mimeType,
        mediaSize: got.size,
        hasVideo: info.hasVideo,
        durationSec: info.durationSec,
        ...(job.rename && named ? { name: named.slice(0, 200) } : {}),
      })
      .where(eq(transcripts.id, id))
      .returning({ id: transcripts.id });
    // Deleted while it downloaded: the file has no transcript to belong to.
    if (stored.length === 0) return void (await t.storage.delete(key));
    const queued = await t.db
      .update(transcripts)
      .set({ status: 'queued', stage: null, progress: 0, updatedAt: t.now() })
      .where(and(eq(transcripts.id, id), eq(transcripts.status, 'processing')))
      .returning({ id: transcripts.id });
    if (queued.length === 0) return;
    await queueTranscription(t.queue, id);
    t.events.publish(id, { type: 'status', status: 'queued', progress: 0, stage: null });
  } catch (err) {
    await failImport(deps, id, ctx, err, shown);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The import's requester, when they are still a member who may add recordings to its workspace. */
async function requesterStillMay(deps: LinkImportDeps, row: Transcript): Promise<User | null> {
  if (!row.userId) return null;
  const [found] = await deps.transcription.db
    .select({ user: users, role: workspaceMembers.role, kind: workspaces.kind })
    .from(users)
    .innerJoin(
      workspaceMembers,
      and(eq(workspaceMembers.userId, users.id), eq(workspaceMembers.workspaceId, row.workspaceId)),
    )
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(eq(users.id, row.userId));
  if (!found || !can({ role: found.role }, 'transcript.create', { workspaceKind: found.kind })) return null;
  return found.user;
}

/** Ends an import that never started: failed with its reason, told to the page and the webhooks. */
async function failQueued(deps: LinkImportDeps, row: Transcript, code: LinkFailureCode) {
  const t = deps.transcription;
  const failed = await t.db
    .update(transcripts)
    .set({ status: 'failed', stage: null, errorCode: code, errorDetail: null, updatedAt: t.now() })
    .where(and(eq(transcripts.id, row.id), eq(transcripts.status, row.status)))
    .returning({ id: transcripts.id });
  if (failed.length === 0) return;
  t.events.publish(row.id, { type: 'status', status: 'failed', progress: 0, stage: null, errorCode: code });
  await t.notify?.({ event: 'transcript.failed', transcriptId: row.id });
}

/** The plan's size, length and minutes, now that the file is here (its job already counts). */
async function admitDownloaded(
  deps: LinkImportDeps,
  user: User,
  row: Transcript,
  sizeBytes: number,
  durationSec: number,
) {
  try {
    await assertAdmission(
      deps.transcription.db,
      user,
      { sizeBytes, durationSec, forTranscript: row.id, workspaceId: row.workspaceId },
      deps.transcription.now(),
    );
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === AdmissionCode.FILE_TOO_LARGE) throw new LinkError('link_too_large', err.messageKey);
    if (err.code === AdmissionCode.DURATION_TOO_LONG) throw new LinkError('link_too_long', err.messageKey);
    if (err.code === AdmissionCode.QUOTA_EXCEEDED) throw new LinkError('link_quota', err.messageKey);
    throw err;
  }
}

interface FetchOptions {
  maxBytes: number;
  maxDurationSec: number;
  signal: AbortSignal;
  progress: Progress;
}

/** The link's media in `dir`: a file served directly, or a page's audio through yt-dlp. */
async function fetchMedia(
  deps: LinkImportDeps,
  url: string,
  dir: string,
  o: FetchOptions,
): Promise<Downloaded> {
  // Stopped by a cancel, the overall deadline, or a stall (nothing received for idleMs).
  const stop = new AbortController();
  const onCancel = () => stop.abort(o.signal.reason);
  if (o.signal.aborted) onCancel();
  o.signal.addEventListener('abort', onCancel, { once: true });
  let idle: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () => stop.abort(new OutboundError('timeout', 'nothing received for a while')),
      deps.idleMs ?? DEFAULT_IDLE_MS,
    );
    idle.unref();
  };
  try {
    touch();
    let res: OutboundResponse;
    try {
      res = await safeFetch(url, {
        allowPrivate: deps.allowPrivate,
        maxRedirects: 5,
        maxBytes: o.maxBytes,
        timeoutMs: deps.timeoutMs,
        signal: stop.signal,
        headers: { accept: 'audio/*, video/*, */*;q=0.5' },
      });
    } catch (err) {
      throw linkErrorOf(err);
    }
    if (res.status < 200 || res.status >= 300) {
      res.close();
      const transient = res.status >= 500 || res.status === 429 || res.status === 408;
      throw new LinkError('link_http_error', `the server answered ${res.status}`, transient);
    }
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (PAGE_TYPES.has(type) && deps.ytDlp) {
      res.close();
      // yt-dlp reads the page before it downloads anything: its own timeouts apply, not ours.
      clearTimeout(idle);
      return await viaYtDlp(deps, res.url, dir, o, stop.signal);
    }
    if (!isMediaContentType(type)) {
      res.close();
      throw new LinkError('link_not_media', `the link serves ${type || 'no content type'}`);
    }
    const file = path.join(dir, 'media');
    const out = createWriteStream(file);
    let bytes = 0;
    try {
      for await (const chunk of res.body()) {
        touch();
        bytes += chunk.length;
        if (!out.write(chunk)) await once(out, 'drain');
        o.progress(bytes, res.length);
      }
    } catch (err) {
      throw linkErrorOf(err);
    } finally {
      out.end();
      await once(out, 'close').catch(() => undefined);
    }
    return {
      file,
      size: (await stat(file)).size,
      filename:
        filenameFromDisposition(String(res.headers['content-disposition'] ?? '')) ?? filenameFromUrl(res.url),
      title: null,
    };
  } finally {
    clearTimeout(idle);
    o.signal.removeEventListener('abort', onCancel);
  }
}

/**
 * A page goes to yt-dlp, which reaches the network itself: its host is checked (after DNS) right
 * before, but what yt-dlp fetches from there is beyond this guard (docs/decisions/0023).
 */
async function viaYtDlp(
  deps: LinkImportDeps,
  pageUrl: string,
  dir: string,
  o: FetchOptions,
  signal: AbortSignal,
): Promise<Downloaded> {
  try {
    await assertImportableUrl(pageUrl, deps.allowPrivate);
  } catch {
    throw new LinkError('link_blocked', 'the page resolves to a refused address');
  }
  const got = await downloadWithYtDlp(deps.ytDlp!, pageUrl, {
    dir,
    maxBytes: o.maxBytes,
    maxDurationSec: o.maxDurationSec,
    timeoutMs: deps.timeoutMs,
    signal,
    onProgress: o.progress,
  }).catch((err: unknown) => {
    throw linkErrorOf(err);
  });
  const size = (await stat(got.file)).size;
  if (size > o.maxBytes) throw new LinkError('link_too_large', 'yt-dlp wrote more than the limit');
  const ext = path.extname(got.file);
  const filename = got.title ? `${got.title.slice(0, 200)}${ext}` : path.basename(got.file);
  return { file: got.file, size, filename, title: got.title };
}

function linkErrorOf(err: unknown): unknown {
  if (!(err instanceof OutboundError)) return err;
  switch (err.reason) {
    case 'too_large':
      return new LinkError('link_too_large', err.message);
    case 'blocked_address':
    case 'bad_url':
      return new LinkError('link_blocked', err.message);
    case 'too_many_redirects':
      return new LinkError('link_redirects', err.message);
    case 'timeout':
      return new LinkError('link_timeout', err.message);
    case 'dns':
    case 'refused':
    case 'unreachable':
    case 'reset':
    case 'tls':
    case 'network':
      return new LinkError('link_unreachable', err.message, true);
  }
}

/** Ends a download that threw: handed back at shutdown, retried when transient, else failed. */
async function failImport(deps: LinkImportDeps, id: string, ctx: JobContext, err: unknown, progress: number) {
  const t = deps.transcription;
  const current = and(eq(transcripts.id, id), eq(transcripts.status, 'processing'));
  const requeue = { status: 'queued' as const, stage: 'downloading' as const, progress: 0 };
  if (ctx.signal.aborted) {
    if (ctx.signal.reason === 'shutdown') {
      await t.db.update(transcripts).set(requeue).where(current);
      throw new JobInterruptedError();
    }
    return; // canceled: the API marked it already
  }
  if (err instanceof LinkError && err.transient && ctx.attempt < ctx.maxAttempts) {
    await t.db.update(transcripts).set(requeue).where(current);
    t.events.publish(id, { type: 'status', status: 'queued', progress: 0, stage: 'downloading' });
    throw new RetryableError(err.message);
  }
  const code = err instanceof LinkError || err instanceof MediaError ? err.code : 'internal';
  const detail = err instanceof Error ? err.message.slice(0, 500) : String(err);
  if (code === 'internal') t.logger.error({ err, transcriptId: id }, 'link import failed');
  const failed = await t.db
    .update(transcripts)
    .set({ status: 'failed', stage: null, errorCode: code, errorDetail: detail, updatedAt: t.now() })
    .where(current)
    .returning({ id: transcripts.id });
  t.events.publish(id, { type: 'status', status: 'failed', progress, stage: null, errorCode: code });
  if (failed.length > 0) await t.notify?.({ event: 'transcript.failed', transcriptId: id });
}
