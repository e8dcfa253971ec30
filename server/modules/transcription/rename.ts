import { and, eq } from 'drizzle-orm';
import { transcripts, type User } from '../../db/schema';
import type { TranscriptionDeps } from './deps';
import { ownTranscript } from './ownership';

export async function renameTranscript(deps: TranscriptionDeps, user: User, id: string, name: string) {
  await ownTranscript(deps, user, id);
  const [row] = await deps.db
    .update(transcripts)
    .set({ name, updatedAt: deps.now() })
    .where(and(eq(transcripts.id, id), eq(transcripts.userId, user.id)))
    .returning();
  return row!;
}
