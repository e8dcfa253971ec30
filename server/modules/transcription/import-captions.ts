import { CaptionParseError, parseCaptionTranscript } from '../../../common/captions';
import { TranscriptCode } from '../../../common/error-codes';
import { normalizeSegments, segmentsToPlainText, type Segment } from '../../../common/segments';
import type { Speaker } from '../../../common/speakers';
import { transcripts } from '../../db/schema';
import { assertCan } from '../workspaces/access';
import type { Actor } from '../workspaces/actor';

import { ApiError } from '../errors';
import { probeMedia } from '../media/probe';
import type { TranscriptionDeps } from './deps';
import { attachUpload, usableMedia } from './media';
import { nameFromFile } from './names';
import { targetFolderId } from './ownership';
import { recordActivity } from './activity';

export interface ImportInput {
  captions: string;
  filename: string;
  name?: string;
  language?: string | null;
  uploadId?: string | null;
  folderId?: string | null;
}

/** An .srt / .vtt file becomes a finished transcript; its media, when given, becomes playable. */
export async function importCaptions(deps: TranscriptionDeps, actor: Actor, input: ImportInput) {
  assertCan(actor.role, 'transcript.create');
  const { user } = actor;
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
  const folderId = await targetFolderId(deps, actor, input.folderId);
  const upload = input.uploadId
    ? await deps.uploads.finished(input.uploadId, {
        userId: user.id,
        workspaceId: actor.workspace.id,
      })
    : null;
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
      workspaceId: actor.workspace.id,
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
  const stored = upload
    ? { ...row!, mediaKey: await attachUpload(deps, { id: row!.id, userId: user.id }, upload) }
    : row!;
  await recordActivity(
    deps.db,
    {
      workspaceId: row!.workspaceId,
      transcriptId: row!.id,
      userId: user.id,
      kind: 'uploaded',
      detail: { source: 'import' },
    },
    deps.now(),
  );
  // Done without a job: tell the webhooks here, as the pipeline does for transcribed ones.
  await deps.notify?.({ event: 'transcript.completed', transcriptId: row!.id });
  return stored;
}
