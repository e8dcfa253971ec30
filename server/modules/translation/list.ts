import { asc, eq } from 'drizzle-orm';
import { translationTracks, type Transcript, type TranslationTrack, type Workspace } from '../../db/schema';
import type { Actor } from '../workspaces/actor';
import { transcriptFor } from '../render/access';
import type { TranslationDeps } from './deps';

/** A transcript with its translation tracks (by language). */
export async function tracksOf(
  deps: Pick<TranslationDeps, 'db'>,
  actor: Actor,
  transcriptId: string,
): Promise<{ transcript: Transcript; workspace: Workspace; tracks: TranslationTrack[] }> {
  const { transcript, workspace } = await transcriptFor(deps.db, actor, transcriptId, 'transcript.read');
  const tracks = await deps.db
    .select()
    .from(translationTracks)
    .where(eq(translationTracks.transcriptId, transcriptId))
    .orderBy(asc(translationTracks.language));
  return { transcript, workspace, tracks };
}
