import { and, eq, inArray } from 'drizzle-orm';
import { transcripts, type User } from '../../db/schema';
import type { TranscriptionDeps } from './deps';
import { ownTranscript, transcriptNotFound } from './ownership';
import { cancelTranscription } from './transcribe-jobs';

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
