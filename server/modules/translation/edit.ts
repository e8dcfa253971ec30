import { and, eq } from 'drizzle-orm';
import { translationTracks, type TranslationTrack } from '../../db/schema';
import { TranslationCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import type { Actor } from '../workspaces/actor';
import { trackFor } from './access';
import type { TranslationDeps } from './deps';

export interface TrackEdit {
  index: number;
  text: string;
}

const notReady = () => new ApiError(TranslationCode.NOT_READY, 'errors.translation.notReady');

/** Changes translated segments' text; `revision` must be the track's (409 otherwise). */
export async function editTrack(
  deps: TranslationDeps,
  actor: Actor,
  id: string,
  revision: number,
  edits: TrackEdit[],
): Promise<TranslationTrack> {
  const track = await trackFor(deps.db, actor, id, 'transcript.edit');
  if (track.status !== 'done') throw notReady();
  if (track.revision !== revision)
    throw new ApiError(TranslationCode.EDIT_CONFLICT, 'errors.transcripts.editConflict');
  const texts = [...track.texts];
  for (const e of edits) {
    if (e.index >= texts.length)
      throw new ApiError(TranslationCode.BAD_SEGMENT, 'errors.translation.badSegment');
    texts[e.index] = e.text.replace(/\s+/g, ' ').trim();
  }
  const [row] = await deps.db
    .update(translationTracks)
    .set({ texts, revision: revision + 1, updatedAt: deps.now() })
    .where(and(eq(translationTracks.id, id), eq(translationTracks.revision, revision)))
    .returning();
  if (!row) throw new ApiError(TranslationCode.EDIT_CONFLICT, 'errors.transcripts.editConflict');
  return row;
}
