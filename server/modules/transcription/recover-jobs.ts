import { and, inArray, lt } from 'drizzle-orm';
import { transcripts } from '../../db/schema';
import type { TranscriptionDeps } from './deps';

/** A transcript left alone this long while queued or processing is checked for its job. */
export const RECOVER_AFTER_MS = 60_000;

/**
 * The recovery sweep (job `recover-jobs`, every minute): a transcript in `queued` or `processing`
 * whose job is gone is queued again. Its job can be lost between the commit and the add (a crash,
 * Redis away: adding is then skipped, job-map.ts `recoverable`) or with Redis itself (restarted
 * without its append-only file). A transcript being processed touches its row every few seconds,
 * so only rows quiet for RECOVER_AFTER_MS are looked at; running the job twice is harmless (the
 * handler starts only from `queued` or takes over a dead run, and charges once).
 */
export async function recoverTranscriptJobs(
  deps: Pick<TranscriptionDeps, 'db' | 'queue' | 'logger' | 'now'>,
): Promise<number> {
  const quietSince = new Date(deps.now().getTime() - RECOVER_AFTER_MS);
  const rows = await deps.db
    .select({
      id: transcripts.id,
      status: transcripts.status,
      stage: transcripts.stage,
      mediaKey: transcripts.mediaKey,
      updatedAt: transcripts.updatedAt,
    })
    .from(transcripts)
    .where(and(inArray(transcripts.status, ['queued', 'processing']), lt(transcripts.updatedAt, quietSince)));
  if (rows.length === 0) return 0;
  // Read after the rows: a job that ends meanwhile has already moved its transcript on.
  const [transcribing, downloading] = await Promise.all([
    deps.queue.liveKeys('transcribe'),
    deps.queue.liveKeys('import-link'),
  ]);
  let queued = 0;
  for (const row of rows) {
    if (transcribing.has(row.id) || downloading.has(row.id)) continue;
    // A link import whose file never arrived downloads again; everything else transcribes. The
    // same id for the same lost state: two sweeps at once add one job.
    const dedupeId = `recover:${row.id}:${row.updatedAt.getTime()}`;
    if (row.stage === 'downloading' && !row.mediaKey)
      await deps.queue.add('import-link', { transcriptId: row.id, rename: false }, { key: row.id, dedupeId });
    else await deps.queue.add('transcribe', { transcriptId: row.id }, { key: row.id, dedupeId });
    deps.logger.warn(
      { transcriptId: row.id, status: row.status },
      'a transcript had lost its job: queued it again',
    );
    queued++;
  }
  return queued;
}
