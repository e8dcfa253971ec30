import { and, eq, inArray } from 'drizzle-orm';
import { TranscriptCode } from '../../../common/error-codes';
import type { RetryOptions } from '../../../common/run-options';
import { transcripts, type Transcript } from '../../db/schema';
import type { Actor } from '../workspaces/actor';

import { ApiError } from '../errors';
import { probeMedia } from '../media/probe';
import { assertAdmission } from './admission';
import type { TranscriptionDeps } from './deps';
import { FRESH_RUN } from './fresh-run';
import { usableMedia } from './media';
import { retryColumns } from './run-columns';
import { queueTranscription } from './transcribe-jobs';

export const notRetryable = () =>
  new ApiError(TranscriptCode.NOT_RETRYABLE, 'errors.transcripts.notRetryable');

/**
 * Transcribes a failed or canceled transcript's media again (limits are checked again). A
 * finished one can run again too with speech detection switched off ("transcribe everything":
 * speech was missed); its minutes are not charged twice. A link import whose file never arrived
 * downloads again instead (modules/link-import/retry.ts).
 */
export async function retryTranscript(
  deps: TranscriptionDeps,
  actor: Actor,
  row: Transcript,
  options: RetryOptions = {},
) {
  const rerun = row.status === 'done' && options.detect_speech === false && row.detectSpeech;
  if (
    (row.status !== 'failed' && row.status !== 'canceled' && !rerun) ||
    !row.mediaKey ||
    row.source === 'import'
  ) {
    throw notRetryable();
  }
  const stored = row.mediaKey;
  const info = await usableMedia(() =>
    deps.storage.withLocalFile(stored, (file) => probeMedia(deps.ffprobe, file)),
  );
  // A re-run of a finished transcript is already paid for: only the jobs-at-once limit applies.
  await assertAdmission(
    deps.db,
    actor.user,
    rerun
      ? { workspaceId: row.workspaceId }
      : { durationSec: info.durationSec, workspaceId: row.workspaceId },
    deps.now(),
  );
  const [updated] = await deps.db
    .update(transcripts)
    .set({
      ...FRESH_RUN,
      status: 'queued',
      stage: null,
      durationSec: info.durationSec,
      mediaType: info.mimeType,
      hasVideo: info.hasVideo,
      ...retryColumns(options),
      updatedAt: deps.now(),
    })
    .where(
      and(eq(transcripts.id, row.id), inArray(transcripts.status, rerun ? ['done'] : ['failed', 'canceled'])),
    )
    .returning();
  if (!updated) throw notRetryable();
  await queueTranscription(deps.queue, row.id);
  deps.events.publish(row.id, { type: 'status', status: 'queued', progress: 0 });
  return updated;
}
