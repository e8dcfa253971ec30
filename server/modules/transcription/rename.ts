import { and, eq } from 'drizzle-orm';
import { transcripts } from '../../db/schema';
import type { Actor } from '../workspaces/actor';
import type { TranscriptionDeps } from './deps';
import { ownTranscript, reachableTranscripts } from './ownership';

export async function renameTranscript(deps: TranscriptionDeps, actor: Actor, id: string, name: string) {
  await ownTranscript(deps, actor, id, 'transcript.edit');
  const [row] = await deps.db
    .update(transcripts)
    .set({ name, updatedAt: deps.now() })
    .where(and(eq(transcripts.id, id), reachableTranscripts(actor)))
    .returning();
  return row!;
}
