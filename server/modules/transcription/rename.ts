import { and, eq } from 'drizzle-orm';
import { transcripts } from '../../db/schema';
import type { Actor } from '../workspaces/actor';
import type { TranscriptionDeps } from './deps';
import { ownTranscript, reachableTranscripts } from './ownership';
import { recordActivity } from './activity';

export async function renameTranscript(deps: TranscriptionDeps, actor: Actor, id: string, name: string) {
  const before = await ownTranscript(deps, actor, id, 'transcript.edit');
  const now = deps.now();
  const [row] = await deps.db
    .update(transcripts)
    .set({ name, updatedAt: now, editedBy: actor.user.id, editedAt: now })
    .where(and(eq(transcripts.id, id), reachableTranscripts(actor)))
    .returning();
  await recordActivity(
    deps.db,
    { workspaceId: before.workspaceId, transcriptId: id, userId: actor.user.id, kind: 'renamed' },
    now,
  );
  return row!;
}
