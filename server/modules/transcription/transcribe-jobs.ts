import type { Db, DbOrTx } from '../../db/client';
import type { JobQueue } from '../jobs/queue';

// A transcript's jobs are keyed by the transcript, so canceling the transcript reaches them: the
// download of a link import (modules/link-import/jobs.ts queues it) and the transcription that
// follows it.

export async function queueTranscription(queue: JobQueue, transcriptId: string): Promise<void> {
  await queue.add('transcribe', { transcriptId }, { key: transcriptId });
}

/**
 * Writes a transcript (`write`, in a transaction) and queues its transcription when `wanted` says
 * so, such that a committed `queued` row never lacks its job: on the database queue the job is
 * added in the same transaction; on BullMQ right after the commit, the recovery sweep
 * (recover-jobs.ts) covering a crash in between or Redis being away.
 */
export async function writeWithTranscription<T extends { id: string }>(
  deps: { db: Db; queue: JobQueue },
  write: (tx: DbOrTx) => Promise<T>,
  wanted: (row: T) => boolean,
): Promise<T> {
  const { queue } = deps;
  const row = await deps.db.transaction(async (tx) => {
    const written = await write(tx);
    if (queue.addInTransaction && wanted(written))
      await queue.addInTransaction(tx, 'transcribe', { transcriptId: written.id }, { key: written.id });
    return written;
  });
  if (!queue.addInTransaction && wanted(row)) await queueTranscription(queue, row.id);
  return row;
}

export async function cancelTranscription(queue: JobQueue, transcriptId: string): Promise<void> {
  await queue.cancel('transcribe', transcriptId);
  await queue.cancel('import-link', transcriptId);
}
