import { count } from 'drizzle-orm';
import { transcripts } from '../../db/schema';
import type { Actor } from '../workspaces/actor';
import type { TranscriptionDeps } from './deps';
import { bulkTranscripts, targetFolderId, transcriptNotFound } from './ownership';

/**
 * Moves transcripts of the current workspace into one of its folders (null: the root); ids
 * not there make it 404.
 */
export async function moveTranscripts(
  deps: TranscriptionDeps,
  actor: Actor,
  ids: string[],
  folderId: string | null,
) {
  const where = bulkTranscripts(actor, 'transcript.move', ids);
  const target = await targetFolderId(deps, actor, folderId);
  const owned = await deps.db.select({ n: count() }).from(transcripts).where(where);
  if ((owned[0]?.n ?? 0) !== new Set(ids).size) throw transcriptNotFound();
  const moved = await deps.db
    .update(transcripts)
    .set({ folderId: target, updatedAt: deps.now() })
    .where(where)
    .returning({ id: transcripts.id });
  return moved.length;
}
