import { and, eq, inArray } from 'drizzle-orm';
import { TranscriptCode } from '../../../common/error-codes';
import { transcripts } from '../../db/schema';
import type { Actor } from '../workspaces/actor';

import { ApiError } from '../errors';
import type { TranscriptionDeps } from './deps';
import { ownTranscript } from './ownership';
import { cancelTranscription } from './transcribe-jobs';

/** Stops a queued or running transcript (its download too); anything else is a 409. */
export async function cancelTranscript(deps: TranscriptionDeps, actor: Actor, id: string) {
  const row = await ownTranscript(deps, actor, id, 'transcript.run');
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
