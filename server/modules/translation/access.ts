import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { translationTracks, type TranslationTrack } from '../../db/schema';
import type { WorkspaceAction } from '../../../common/workspace-permissions';
import { TranslationCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import type { Actor } from '../workspaces/actor';
import { assertCan, inActorsWorkspaces, roleIn } from '../workspaces/access';

export const trackNotFound = () => new ApiError(TranslationCode.NOT_FOUND, 'errors.translation.notFound');

/** A translation track in one of the actor's workspaces, if the role allows `action`. */
export async function trackFor(
  db: DbOrTx,
  actor: Actor,
  id: string,
  action: WorkspaceAction,
): Promise<TranslationTrack> {
  const [row] = await db
    .select({ track: translationTracks, role: roleIn(actor, translationTracks.workspaceId) })
    .from(translationTracks)
    .where(and(eq(translationTracks.id, id), inActorsWorkspaces(actor, translationTracks.workspaceId)));
  if (!row?.role) throw trackNotFound();
  assertCan(row.role, action);
  return row.track;
}
