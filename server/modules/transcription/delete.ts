import { and, eq } from 'drizzle-orm';
import { transcripts } from '../../db/schema';
import type { Actor } from '../workspaces/actor';
import type { TranscriptionDeps } from './deps';
import { bulkTranscripts, ownTranscript, reachableTranscripts, transcriptNotFound } from './ownership';
import { cancelTranscription } from './transcribe-jobs';
import { deleteRenderFiles, renderFilesOf } from '../render/files';

/** Deletes the transcript and its media; a running job is stopped first. */
export async function deleteTranscript(deps: TranscriptionDeps, actor: Actor, id: string) {
  const row = await ownTranscript(deps, actor, id, 'transcript.delete');
  if (row.status === 'queued' || row.status === 'processing') await cancelTranscription(deps.queue, id);
  // Its captioned videos' rows go with it (cascade); their files are named before they do.
  const renderFiles = await renderFilesOf(deps.db, [id]);
  await deps.db.delete(transcripts).where(and(eq(transcripts.id, id), reachableTranscripts(actor)));
  if (row.mediaKey) await deps.storage.delete(row.mediaKey);
  await deleteRenderFiles(deps.storage, renderFiles, deps.logger);
  await deps.notify?.({
    event: 'transcript.deleted',
    transcriptId: id,
    workspaceId: row.workspaceId,
    name: row.name,
  });
}

/** Deletes several transcripts of the current workspace; ids not there make the whole call 404. */
export async function deleteTranscripts(deps: TranscriptionDeps, actor: Actor, ids: string[]) {
  const where = bulkTranscripts(actor, 'transcript.delete', ids);
  const rows = await deps.db
    .select({
      id: transcripts.id,
      name: transcripts.name,
      status: transcripts.status,
      mediaKey: transcripts.mediaKey,
    })
    .from(transcripts)
    .where(where);
  if (rows.length !== new Set(ids).size) throw transcriptNotFound();
  for (const row of rows) {
    if (row.status === 'queued' || row.status === 'processing') await cancelTranscription(deps.queue, row.id);
  }
  const renderFiles = await renderFilesOf(
    deps.db,
    rows.map((r) => r.id),
  );
  await deps.db.delete(transcripts).where(where);
  for (const row of rows) if (row.mediaKey) await deps.storage.delete(row.mediaKey);
  await deleteRenderFiles(deps.storage, renderFiles, deps.logger);
  for (const row of rows) {
    await deps.notify?.({
      event: 'transcript.deleted',
      transcriptId: row.id,
      workspaceId: actor.workspace.id,
      name: row.name,
    });
  }
  return rows.length;
}
