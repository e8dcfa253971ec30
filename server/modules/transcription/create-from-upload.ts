import { TranscriptCode } from '../../../common/error-codes';
import type { UploadRun } from '../../../common/run-options';
import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../../db/client';
import { transcripts, type Transcript } from '../../db/schema';
import { assertCan } from '../workspaces/access';
import type { Actor } from '../workspaces/actor';

import { ApiError } from '../errors';
import { MediaError } from '../media/media-error';
import { probeMedia, type MediaInfo } from '../media/probe';
import { assertAdmission } from './admission';
import type { TranscriptionDeps } from './deps';
import { nameFromFile } from './names';
import { targetFolderId } from './ownership';
import { runColumns } from './run-columns';
import { mediaKey } from '../storage/storage';
import { writeWithTranscription } from './transcribe-jobs';
import { recordActivity } from './activity';

/**
 * Turns a finished upload into a queued transcript: probe (real media, not a name), check the
 * rank's limits with the real duration, store the file, write the row with its job. A file that
 * is not usable media still becomes a transcript, failed with its reason, so the user sees why
 * and can delete it.
 */
export async function createFromUpload(deps: TranscriptionDeps, actor: Actor, input: UploadRun) {
  assertCan(actor.role, 'transcript.create');
  const { user } = actor;
  const upload = await deps.uploads.finished(input.upload_id, {
    userId: user.id,
    workspaceId: actor.workspace.id,
  });
  if (!upload) throw new ApiError(TranscriptCode.UPLOAD_NOT_FOUND, 'errors.uploads.notFound');
  const folderId = await targetFolderId(deps, actor, input.folder_id);

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
        { sizeBytes: upload.size, durationSec: info.durationSec, workspaceId: actor.workspace.id },
        deps.now(),
      );
    } catch (err) {
      await deps.uploads.discard(upload.id);
      throw err;
    }
  }

  // The file first, as a copy (the upload stays until the row exists), then the row and its job
  // together (writeWithTranscription), then the upload goes: a crash at any point leaves either
  // the upload to try again or a transcript with its file and its job, never one without.
  const id = randomUUID();
  const key = mediaKey(user.id, id);
  await deps.storage.putFile(upload.path, key);
  const insert = (tx: DbOrTx) =>
    tx
      .insert(transcripts)
      .values({
        id,
        mediaKey: key,
        workspaceId: actor.workspace.id,
        userId: user.id,
        folderId,
        name: input.name?.trim() || nameFromFile(upload.filename),
        source: 'upload',
        status: info ? 'queued' : 'failed',
        ...runColumns(input),
        mediaName: upload.filename.slice(0, 255),
        // Only what ffprobe found: the client's claimed type (text/html …) is never kept.
        mediaType: info?.mimeType ?? null,
        mediaSize: upload.size,
        hasVideo: info?.hasVideo ?? false,
        durationSec: info?.durationSec ?? null,
        errorCode: mediaError?.code ?? null,
        errorDetail: mediaError?.message ?? null,
      })
      .returning()
      .then((rows) => rows[0]!);
  let row: Transcript;
  try {
    row = await writeWithTranscription(deps, insert, () => info !== null);
  } catch (err) {
    await deps.storage.delete(key).catch(() => undefined);
    throw err;
  }
  await deps.uploads.discard(upload.id);
  await recordActivity(
    deps.db,
    {
      workspaceId: row.workspaceId,
      transcriptId: row.id,
      userId: user.id,
      kind: 'uploaded',
      detail: { source: 'upload' },
    },
    deps.now(),
  );
  if (!info) await deps.notify?.({ event: 'transcript.failed', transcriptId: row.id });
  return row;
}
