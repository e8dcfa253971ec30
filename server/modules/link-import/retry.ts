import { and, eq, inArray } from 'drizzle-orm';
import type { RetryOptions } from '../../../common/run-options';
import { transcripts, type Transcript } from '../../db/schema';
import type { Actor } from '../workspaces/actor';
import { assertAdmission } from '../transcription/admission';
import { FRESH_RUN } from '../transcription/fresh-run';
import { ownTranscript } from '../transcription/ownership';
import { notRetryable, retryTranscript } from '../transcription/retry';
import { retryColumns } from '../transcription/run-columns';
import type { LinkImportDeps } from './deps';
import { queueLinkDownload } from './jobs';

/** A link import that failed or stopped before its file arrived: nothing to transcribe yet. */
const awaitsDownload = (row: Transcript) =>
  (row.status === 'failed' || row.status === 'canceled') && row.source === 'link' && !row.mediaKey;

/**
 * "Try again" for any transcript: a link import whose file never arrived downloads again, every
 * other one is transcribed again from its media (modules/transcription/retry.ts).
 */
export async function retryRun(deps: LinkImportDeps, actor: Actor, id: string, options: RetryOptions = {}) {
  const row = await ownTranscript(deps.transcription, actor, id, 'transcript.run');
  if (awaitsDownload(row)) return retryDownload(deps, actor, row, options);
  return retryTranscript(deps.transcription, actor, row, options);
}

async function retryDownload(deps: LinkImportDeps, actor: Actor, row: Transcript, options: RetryOptions) {
  const t = deps.transcription;
  await assertAdmission(t.db, actor.user, { workspaceId: row.workspaceId }, t.now());
  const [updated] = await t.db
    .update(transcripts)
    .set({
      ...FRESH_RUN,
      status: 'queued',
      stage: 'downloading',
      ...retryColumns(options),
      // The one who tries again asks for the download now (its requester may have left).
      userId: actor.user.id,
      updatedAt: t.now(),
    })
    .where(and(eq(transcripts.id, row.id), inArray(transcripts.status, ['failed', 'canceled'])))
    .returning();
  if (!updated) throw notRetryable();
  await queueLinkDownload(t.queue, row.id);
  t.events.publish(row.id, { type: 'status', status: 'queued', progress: 0, stage: 'downloading' });
  return updated;
}
