import { and, asc, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { CaptionParseError, parseCaptionTranscript } from '../../../common/captions';
import {
  mergeSegments,
  normalizeSegments,
  segmentsToPlainText,
  shiftSegments,
  splitSegment,
  type Segment,
} from '../../../common/segments';
import { retimeWords } from '../../../common/words';
import { replaceInSegments } from '../../../common/find-replace';
import {
  MAX_SPEAKERS,
  assignSpeaker,
  cleanSpeakerName,
  mergeSpeakers,
  newSpeaker,
  normalizeSpeakers,
  withKnownSpeakers,
  type Speaker,
} from '../../../common/speakers';
import { folders, transcripts, type Transcript, type User } from '../../db/schema';
import { FolderCode, TranscriptCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import { MediaError } from '../media/media-error';
import { probeMedia, type MediaInfo } from '../media/probe';
import { mediaKey } from '../storage/storage';
import { assertAdmission } from './admission';
import { searchCondition, searchSnippets } from './search';
import { stripControlChars } from '../../../common/text';
import type { TranscriptionDeps } from './deps';
import { cancelTranscription, queueLinkDownload, queueTranscription } from './transcribe-jobs';
import { FRESH_RUN } from './fresh-run';

export const transcriptNotFound = () => new ApiError(TranscriptCode.NOT_FOUND, 'errors.transcripts.notFound');
export const folderNotFound = () => new ApiError(FolderCode.NOT_FOUND, 'errors.transcripts.folderNotFound');

/** A transcript of this user, or 404 (someone else's ids look exactly like missing ones). */
export async function ownTranscript(deps: TranscriptionDeps, user: User, id: string): Promise<Transcript> {
  const [row] = await deps.db
    .select()
    .from(transcripts)
    .where(and(eq(transcripts.id, id), eq(transcripts.userId, user.id)));
  if (!row) throw transcriptNotFound();
  return row;
}

async function assertFolder(deps: TranscriptionDeps, user: User, folderId: string | null | undefined) {
  if (!folderId) return null;
  const [row] = await deps.db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.id, folderId), eq(folders.userId, user.id)));
  if (!row) throw folderNotFound();
  return row.id;
}

/** ffprobe's findings; a file that is not usable media is a 422 saying why (`onRefused` first). */
async function usableMedia(
  probe: () => Promise<MediaInfo>,
  onRefused?: () => Promise<void>,
): Promise<MediaInfo> {
  try {
    return await probe();
  } catch (err) {
    if (!(err instanceof MediaError)) throw err;
    await onRefused?.();
    throw new ApiError(TranscriptCode.NOT_MEDIA, `errors.media.${err.code}`);
  }
}

/** Moves a finished upload into storage as the transcript's media; returns its storage key. */
async function attachUpload(
  deps: TranscriptionDeps,
  row: Pick<Transcript, 'id' | 'userId'>,
  upload: { id: string; path: string },
): Promise<string> {
  const key = mediaKey(row.userId, row.id);
  await deps.storage.adoptFile(upload.path, key);
  await deps.uploads.discard(upload.id);
  await deps.db.update(transcripts).set({ mediaKey: key }).where(eq(transcripts.id, row.id));
  return key;
}

/** The file name without its extension, as the default transcript name. */
export function nameFromFile(filename: string): string {
  const clean = stripControlChars(filename);
  const base = clean.replace(/\.[^./\\]{1,8}$/, '').trim();
  return (base || clean.trim() || 'Transcript').slice(0, 200);
}

export interface CreateInput {
  uploadId: string;
  name?: string;
  language: string;
  translate: boolean;
  folderId?: string | null;
  /** Look for speech first (default true). */
  detectSpeech?: boolean;
  /** Identify speakers; speakerCount = how many are expected (null: find out). */
  detectSpeakers?: boolean;
  speakerCount?: number | null;
}

/**
 * Turns a finished upload into a queued transcript: probe (real media, not a name), check the
 * rank's limits with the real duration, move the file into storage, queue the job. A file that
 * is not usable media still becomes a transcript, failed with its reason, so the user sees why
 * and can delete it.
 */
export async function createFromUpload(deps: TranscriptionDeps, user: User, input: CreateInput) {
  const upload = await deps.uploads.finished(input.uploadId, user.id);
  if (!upload) throw new ApiError(TranscriptCode.UPLOAD_NOT_FOUND, 'errors.uploads.notFound');
  const folderId = await assertFolder(deps, user, input.folderId);

  let info: MediaInfo | null = null;
  let mediaError: MediaError | null = null;
  try {
    info = await probeMedia(deps.ffprobe, upload.path);
  } catch (err) {
    if (!(err instanceof MediaError)) throw err;
    mediaError = err;
  }
  if (info) {
    try {
      await assertAdmission(
        deps.db,
        user,
        { sizeBytes: upload.size, durationSec: info.durationSec },
        deps.now(),
      );
    } catch (err) {
      await deps.uploads.discard(upload.id);
      throw err;
    }
  }

  const [row] = await deps.db
    .insert(transcripts)
    .values({
      userId: user.id,
      folderId,
      name: input.name?.trim() || nameFromFile(upload.filename),
      source: 'upload',
      status: info ? 'queued' : 'failed',
      language: input.language,
      translate: input.translate,
      detectSpeech: input.detectSpeech ?? true,
      detectSpeakers: input.detectSpeakers ?? false,
      speakerCount: input.detectSpeakers ? (input.speakerCount ?? null) : null,
      mediaName: upload.filename.slice(0, 255),
      // Only what ffprobe found: the client's claimed type (text/html …) is never kept.
      mediaType: info?.mimeType ?? null,
      mediaSize: upload.size,
      hasVideo: info?.hasVideo ?? false,
      durationSec: info?.durationSec ?? null,
      errorCode: mediaError?.code ?? null,
      errorDetail: mediaError?.message ?? null,
    })
    .returning();
  const key = await attachUpload(deps, row!, upload);
  if (info) await queueTranscription(deps.queue, row!.id);
  else await deps.notify?.({ event: 'transcript.failed', transcriptId: row!.id });
  return { ...row!, mediaKey: key };
}

export interface ImportInput {
  captions: string;
  filename: string;
  name?: string;
  language?: string | null;
  uploadId?: string | null;
  folderId?: string | null;
}

/** An .srt / .vtt file becomes a finished transcript; its media, when given, becomes playable. */
export async function importCaptions(deps: TranscriptionDeps, user: User, input: ImportInput) {
  let segments: Segment[];
  let speakers: Speaker[];
  try {
    // Voice tags and 'Name:' prefixes become speakers; unnamed voices get the account's language.
    ({ segments, speakers } = parseCaptionTranscript(
      input.captions,
      input.filename,
      undefined,
      user.language,
    ));
  } catch (err) {
    if (err instanceof CaptionParseError) {
      throw new ApiError(TranscriptCode.CAPTIONS_INVALID, `errors.captions.${err.code}`);
    }
    throw err;
  }
  const folderId = await assertFolder(deps, user, input.folderId);
  const upload = input.uploadId ? await deps.uploads.finished(input.uploadId, user.id) : null;
  if (input.uploadId && !upload) {
    throw new ApiError(TranscriptCode.UPLOAD_NOT_FOUND, 'errors.uploads.notFound');
  }
  const info = upload
    ? await usableMedia(
        () => probeMedia(deps.ffprobe, upload.path),
        () => deps.uploads.discard(upload.id),
      )
    : null;
  const durationSec = info?.durationSec ?? (segments.length ? segments[segments.length - 1]!.end : 0);
  const clean = normalizeSegments(segments, info ? info.durationSec : undefined);
  const [row] = await deps.db
    .insert(transcripts)
    .values({
      userId: user.id,
      folderId,
      name: input.name?.trim() || nameFromFile(upload?.filename ?? input.filename),
      source: 'import',
      status: 'done',
      progress: 100,
      language: input.language ?? 'auto',
      detectedLanguage: input.language ?? null,
      segments: clean,
      speakers,
      plainText: segmentsToPlainText(clean),
      mediaName: upload?.filename.slice(0, 255) ?? null,
      mediaType: info?.mimeType ?? null,
      mediaSize: upload?.size ?? null,
      hasVideo: info?.hasVideo ?? false,
      durationSec,
      completedAt: deps.now(),
    })
    .returning();
  const stored = upload ? { ...row!, mediaKey: await attachUpload(deps, row!, upload) } : row!;
  // Done without a job: tell the webhooks here, as the pipeline does for transcribed ones.
  await deps.notify?.({ event: 'transcript.completed', transcriptId: row!.id });
  return stored;
}

export interface ListQuery {
  folderId?: string | null;
  /** 'root' lists transcripts outside any folder. */
  root?: boolean;
  q?: string;
  sort: 'created_at' | 'name' | 'duration';
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

export async function listTranscripts(deps: TranscriptionDeps, user: User, query: ListQuery) {
  const conditions: SQL[] = [eq(transcripts.userId, user.id)];
  if (query.folderId) {
    await assertFolder(deps, user, query.folderId);
    conditions.push(eq(transcripts.folderId, query.folderId));
  } else if (query.root) {
    conditions.push(isNull(transcripts.folderId));
  }
  const q = query.q?.trim();
  if (q) conditions.push(searchCondition(q));
  const where = and(...conditions);
  const column =
    query.sort === 'name'
      ? transcripts.name
      : query.sort === 'duration'
        ? transcripts.durationSec
        : transcripts.createdAt;
  const direction = query.order === 'asc' ? asc : desc;
  const [items, [total]] = await Promise.all([
    deps.db
      .select(summaryColumns)
      .from(transcripts)
      .where(where)
      .orderBy(direction(column), desc(transcripts.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    deps.db.select({ n: count() }).from(transcripts).where(where),
  ]);
  // A search shows, per result, where its text matched (null: by its name only).
  const snippets = q
    ? await searchSnippets(
        deps.db,
        user.id,
        items.map((i) => i.id),
        q,
      )
    : null;
  return {
    items: snippets ? items.map((i) => ({ ...i, snippet: snippets.get(i.id) ?? null })) : items,
    total: total?.n ?? 0,
    page: query.page,
    page_size: query.pageSize,
  };
}

/**
 * How many files will be transcribed before this one: every job running and every job queued
 * earlier (all users: they share the engine). null when the transcript is not waiting.
 */
export async function queuePosition(
  deps: TranscriptionDeps,
  row: Pick<Transcript, 'status' | 'createdAt'>,
): Promise<number | null> {
  if (row.status !== 'queued') return null;
  const [ahead] = await deps.db
    .select({ n: count() })
    .from(transcripts)
    .where(
      or(
        eq(transcripts.status, 'processing'),
        and(
          eq(transcripts.status, 'queued'),
          sql`${transcripts.createdAt} < ${row.createdAt.toISOString()}::timestamptz`,
        ),
      ),
    );
  return ahead?.n ?? 0;
}

/** Everything but the segments: what lists show. */
export const summaryColumns = {
  id: transcripts.id,
  name: transcripts.name,
  folderId: transcripts.folderId,
  source: transcripts.source,
  sourceUrl: transcripts.sourceUrl,
  status: transcripts.status,
  progress: transcripts.progress,
  stage: transcripts.stage,
  remainingSec: transcripts.remainingSec,
  detectSpeech: transcripts.detectSpeech,
  detectSpeakers: transcripts.detectSpeakers,
  speakerCount: transcripts.speakerCount,
  language: transcripts.language,
  detectedLanguage: transcripts.detectedLanguage,
  translate: transcripts.translate,
  mediaName: transcripts.mediaName,
  mediaType: transcripts.mediaType,
  mediaSize: transcripts.mediaSize,
  mediaKey: transcripts.mediaKey,
  hasVideo: transcripts.hasVideo,
  durationSec: transcripts.durationSec,
  errorCode: transcripts.errorCode,
  createdAt: transcripts.createdAt,
  updatedAt: transcripts.updatedAt,
  completedAt: transcripts.completedAt,
};

export async function renameTranscript(deps: TranscriptionDeps, user: User, id: string, name: string) {
  await ownTranscript(deps, user, id);
  const [row] = await deps.db
    .update(transcripts)
    .set({ name, updatedAt: deps.now() })
    .where(and(eq(transcripts.id, id), eq(transcripts.userId, user.id)))
    .returning();
  return row!;
}

export async function moveTranscripts(
  deps: TranscriptionDeps,
  user: User,
  ids: string[],
  folderId: string | null,
) {
  const target = await assertFolder(deps, user, folderId);
  const owned = await deps.db
    .select({ n: count() })
    .from(transcripts)
    .where(and(eq(transcripts.userId, user.id), inArray(transcripts.id, ids)));
  if ((owned[0]?.n ?? 0) !== new Set(ids).size) throw transcriptNotFound();
  const moved = await deps.db
    .update(transcripts)
    .set({ folderId: target, updatedAt: deps.now() })
    .where(and(eq(transcripts.userId, user.id), inArray(transcripts.id, ids)))
    .returning({ id: transcripts.id });
  return moved.length;
}

export type SegmentEdit =
  /** The whole transcript (undo): the speakers too when given, else they stay. */
  | { op: 'replace'; segments: Segment[]; speakers?: Speaker[] }
  | { op: 'text'; index: number; text: string }
  | { op: 'split'; index: number; offset: number }
  | { op: 'merge'; index: number }
  | { op: 'shift'; delta: number; from?: number }
  | { op: 'find_replace'; find: string; replace: string; index?: number }
  /** Segments at `indices` said by `speaker` (null: nobody named). */
  | { op: 'assign_speaker'; indices: number[]; speaker: string | null }
  /** A new speaker (default name and colour unless given), optionally given segments at once. */
  | { op: 'add_speaker'; name?: string; indices?: number[] }
  /** Rename or recolour a speaker: every segment follows, as they refer to it by id. */
  | { op: 'update_speaker'; speaker: string; name?: string; color?: string }
  /** Everything `from` said becomes `into`'s; `from` leaves the list. */
  | { op: 'merge_speakers'; from: string; into: string };

/** Edits apply to finished transcripts only; `updated_at` guards against lost updates. */
export async function editSegments(
  deps: TranscriptionDeps,
  user: User,
  id: string,
  edit: SegmentEdit,
  expectedUpdatedAt?: string,
) {
  const row = await ownTranscript(deps, user, id);
  if (row.status !== 'done') {
    throw new ApiError(TranscriptCode.NOT_EDITABLE, 'errors.transcripts.notEditable');
  }
  if (expectedUpdatedAt && new Date(expectedUpdatedAt).getTime() !== row.updatedAt.getTime()) {
    throw new ApiError(TranscriptCode.NOT_EDITABLE, 'errors.transcripts.editConflict');
  }
  const duration = row.durationSec ?? undefined;
  let next: Segment[];
  let speakers: Speaker[];
  try {
    ({ segments: next, speakers } = applyEdit(row, edit, duration, user.language));
    next = withKnownSpeakers(next, speakers);
  } catch (err) {
    if (err instanceof RangeError) {
      throw new ApiError(TranscriptCode.BAD_EDIT, 'errors.transcripts.badEdit', {
        detail: err.message,
      });
    }
    throw err;
  }
  const [updated] = await deps.db
    .update(transcripts)
    .set({ segments: next, speakers, plainText: segmentsToPlainText(next), updatedAt: deps.now() })
    // Compared at millisecond precision: PostgreSQL keeps microseconds, JavaScript dates do not.
    .where(
      and(
        eq(transcripts.id, id),
        sql`date_trunc('milliseconds', ${transcripts.updatedAt}) = ${row.updatedAt.toISOString()}::timestamptz`,
      ),
    )
    .returning();
  if (!updated) throw new ApiError(TranscriptCode.NOT_EDITABLE, 'errors.transcripts.editConflict');
  return updated;
}

function applyEdit(
  row: Pick<Transcript, 'segments' | 'speakers'>,
  edit: SegmentEdit,
  duration: number | undefined,
  locale: string,
): { segments: Segment[]; speakers: Speaker[] } {
  const speakers = row.speakers;
  const find = (id: string) => {
    const found = speakers.find((s) => s.id === id);
    if (!found) throw new RangeError(`No speaker ${id}`);
    return found;
  };
  switch (edit.op) {
    case 'replace':
      return {
        segments: normalizeSegments(edit.segments, duration),
        speakers: edit.speakers ? normalizeSpeakers(edit.speakers, locale) : speakers,
      };
    case 'assign_speaker':
      if (edit.speaker !== null) find(edit.speaker);
      return { segments: assignSpeaker(row.segments, edit.indices, edit.speaker), speakers };
    case 'add_speaker': {
      if (speakers.length >= MAX_SPEAKERS) throw new RangeError(`At most ${MAX_SPEAKERS} speakers`);
      const added = newSpeaker(speakers, locale, edit.name);
      return {
        segments: edit.indices?.length ? assignSpeaker(row.segments, edit.indices, added.id) : row.segments,
        speakers: [...speakers, added],
      };
    }
    case 'update_speaker': {
      const current = find(edit.speaker);
      const name = edit.name === undefined ? current.name : cleanSpeakerName(edit.name);
      if (name === '') throw new RangeError('A speaker name cannot be blank');
      const updated = { ...current, name, color: edit.color?.toLowerCase() ?? current.color };
      return { segments: row.segments, speakers: speakers.map((s) => (s.id === current.id ? updated : s)) };
    }
    case 'merge_speakers':
      return mergeSpeakers(row.segments, speakers, edit.from, edit.into);
    default:
      return { segments: applySegmentEdit(row.segments, edit, duration), speakers };
  }
}

function applySegmentEdit(
  segments: Segment[],
  edit: Extract<SegmentEdit, { op: 'text' | 'split' | 'merge' | 'shift' | 'find_replace' }>,
  duration?: number,
): Segment[] {
  switch (edit.op) {
    case 'text': {
      const seg = segments[edit.index];
      if (!seg) throw new RangeError('No such segment');
      // Unchanged words keep their timing; new or changed ones share the time around them.
      const words = retimeWords(seg, edit.text);
      const timed: Segment = words
        ? { start: seg.start, end: seg.end, text: edit.text, words }
        : { start: seg.start, end: seg.end, text: edit.text };
      const edited = seg.speaker ? { ...timed, speaker: seg.speaker } : timed;
      const copy = segments.map((s, i) => (i === edit.index ? edited : s));
      return normalizeSegments(copy, duration);
    }
    case 'split':
      return splitSegment(segments, edit.index, edit.offset);
    case 'merge':
      return mergeSegments(segments, edit.index);
    case 'shift':
      return shiftSegments(segments, edit.delta, edit.from ?? 0, duration);
    case 'find_replace': {
      if (edit.index !== undefined && !segments[edit.index]) throw new RangeError('No such segment');
      const replaced = replaceInSegments(segments, edit.find, edit.replace, edit.index);
      return normalizeSegments(replaced.segments, duration);
    }
  }
}

/** Deletes the transcript and its media; a running job is stopped first. */
export async function deleteTranscript(deps: TranscriptionDeps, user: User, id: string) {
  const row = await ownTranscript(deps, user, id);
  if (row.status === 'queued' || row.status === 'processing') await cancelTranscription(deps.queue, id);
  await deps.db.delete(transcripts).where(and(eq(transcripts.id, id), eq(transcripts.userId, user.id)));
  if (row.mediaKey) await deps.storage.delete(row.mediaKey);
  await deps.notify?.({ event: 'transcript.deleted', transcriptId: id, userId: user.id, name: row.name });
}

/** Deletes several transcripts at once; ids that are not the user's make the whole call 404. */
export async function deleteTranscripts(deps: TranscriptionDeps, user: User, ids: string[]) {
  const rows = await deps.db
    .select({
      id: transcripts.id,
      name: transcripts.name,
      status: transcripts.status,
      mediaKey: transcripts.mediaKey,
    })
    .from(transcripts)
    .where(and(eq(transcripts.userId, user.id), inArray(transcripts.id, ids)));
  if (rows.length !== new Set(ids).size) throw transcriptNotFound();
  for (const row of rows) {
    if (row.status === 'queued' || row.status === 'processing') await cancelTranscription(deps.queue, row.id);
  }
  await deps.db.delete(transcripts).where(and(eq(transcripts.userId, user.id), inArray(transcripts.id, ids)));
  for (const row of rows) if (row.mediaKey) await deps.storage.delete(row.mediaKey);
  for (const row of rows) {
    await deps.notify?.({
      event: 'transcript.deleted',
      transcriptId: row.id,
      userId: user.id,
      name: row.name,
    });
  }
  return rows.length;
}

export async function cancelTranscript(deps: TranscriptionDeps, user: User, id: string) {
  const row = await ownTranscript(deps, user, id);
  const [updated] = await deps.db
    .update(transcripts)
    .set({ status: 'canceled', updatedAt: deps.now() })
    .where(and(eq(transcripts.id, id), inArray(transcripts.status, ['queued', 'processing'])))
    .returning();
  if (!updated) {
    throw new ApiError(TranscriptCode.NOT_CANCELABLE, 'errors.transcripts.notCancelable', {
      status: row.status,
    });
  }
  await cancelTranscription(deps.queue, id);
  deps.events.publish(id, { type: 'status', status: 'canceled', progress: updated.progress });
  return updated;
}

/**
 * Runs a failed or canceled transcript again (limits are checked again). A finished one can run
 * again too with speech detection switched off ("transcribe everything": speech was missed); its
 * minutes are not charged twice.
 */
export async function retryTranscript(
  deps: TranscriptionDeps,
  user: User,
  id: string,
  detectSpeech?: boolean,
) {
  const row = await ownTranscript(deps, user, id);
  const rerun = row.status === 'done' && detectSpeech === false && row.detectSpeech;
  if ((row.status === 'failed' || row.status === 'canceled') && row.source === 'link' && !row.mediaKey) {
    return retryDownload(deps, user, row, detectSpeech);
  }
  if (
    (row.status !== 'failed' && row.status !== 'canceled' && !rerun) ||
    !row.mediaKey ||
    row.source === 'import'
  ) {
    throw new ApiError(TranscriptCode.NOT_RETRYABLE, 'errors.transcripts.notRetryable');
  }
  const stored = row.mediaKey;
  const info = await usableMedia(() =>
    deps.storage.withLocalFile(stored, (file) => probeMedia(deps.ffprobe, file)),
  );
  // A re-run of a finished transcript is already paid for: only the jobs-at-once limit applies.
  await assertAdmission(deps.db, user, rerun ? {} : { durationSec: info.durationSec }, deps.now());
  const [updated] = await deps.db
    .update(transcripts)
    .set({
      ...FRESH_RUN,
      status: 'queued',
      stage: null,
      durationSec: info.durationSec,
      mediaType: info.mimeType,
      hasVideo: info.hasVideo,
      ...(detectSpeech === undefined ? {} : { detectSpeech }),
      updatedAt: deps.now(),
    })
    .where(
      and(eq(transcripts.id, id), inArray(transcripts.status, rerun ? ['done'] : ['failed', 'canceled'])),
    )
    .returning();
  if (!updated) throw new ApiError(TranscriptCode.NOT_RETRYABLE, 'errors.transcripts.notRetryable');
  await queueTranscription(deps.queue, id);
  deps.events.publish(id, { type: 'status', status: 'queued', progress: 0 });
  return updated;
}

/** A link import that failed or stopped before its file arrived downloads again. */
async function retryDownload(deps: TranscriptionDeps, user: User, row: Transcript, detectSpeech?: boolean) {
  await assertAdmission(deps.db, user, {}, deps.now());
  const [updated] = await deps.db
    .update(transcripts)
    .set({
      ...FRESH_RUN,
      status: 'queued',
      stage: 'downloading',
      ...(detectSpeech === undefined ? {} : { detectSpeech }),
      updatedAt: deps.now(),
    })
    .where(and(eq(transcripts.id, row.id), inArray(transcripts.status, ['failed', 'canceled'])))
    .returning();
  if (!updated) throw new ApiError(TranscriptCode.NOT_RETRYABLE, 'errors.transcripts.notRetryable');
  await queueLinkDownload(deps.queue, row.id);
  deps.events.publish(row.id, { type: 'status', status: 'queued', progress: 0, stage: 'downloading' });
  return updated;
}
