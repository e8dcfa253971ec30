import { and, count, eq, inArray } from 'drizzle-orm';
import { transcripts, type User } from '../../db/schema';
import type { TranscriptionDeps } from './deps';
import { targetFolderId, transcriptNotFound } from './ownership';

/** Moves transcripts into a folder (null: the root); ids that are not the user's make it 404. */
export async function moveTranscripts(
  deps: TranscriptionDeps,
  user: User,
  ids: string[],
  folderId: string | null,
) {
  const target = await targetFolderId(deps, user, folderId);
  const owned = await deps.db
    .select({ n: count() })
    .from(transcripts)
    .where(and(eq(transcripts.userId, user.id), inArray(transcripts.id, ids)));
  if ((owned[0]?.n ?? 0) !== new Set(ids).size) throw transcriptNotFound();
  const moved = await deps.db
    .update(transcripts)
    .set({ folderId: target, updatedAt: deps.now() })
    .where(and(eq(transcripts.userId, user.id), inArray(transcripts.id, ids)))
    .returning({ id: transcripts.id });
  return moved.length;
}
