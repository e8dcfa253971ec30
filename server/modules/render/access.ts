import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  renderJobs,
  transcripts,
  workspaces,
  type RenderJob,
  type Transcript,
  type Workspace,
} from '../../db/schema';
import type { WorkspaceRole } from '../../../common/record-states';
import type { WorkspaceAction } from '../../../common/workspace-permissions';
import { RenderCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import type { Actor } from '../workspaces/actor';
import { assertCan, inActorsWorkspaces, roleIn } from '../workspaces/access';
import { transcriptNotFound } from '../transcription/ownership';

// Whose transcripts and renders are whose: found through the caller's membership of their
// workspace (404 otherwise, like a missing id), then the role decides (403 with the role).

export const renderNotFound = () => new ApiError(RenderCode.NOT_FOUND, 'errors.render.notFound');

/** A transcript in one of the actor's workspaces, with its workspace, if the role allows `action`. */
export async function transcriptFor(
  db: DbOrTx,
  actor: Actor,
  id: string,
  action: WorkspaceAction,
): Promise<{ transcript: Transcript; workspace: Workspace; role: WorkspaceRole }> {
  const [row] = await db
    .select({ transcript: transcripts, workspace: workspaces, role: roleIn(actor, transcripts.workspaceId) })
    .from(transcripts)
    .innerJoin(workspaces, eq(workspaces.id, transcripts.workspaceId))
    .where(and(eq(transcripts.id, id), inActorsWorkspaces(actor, transcripts.workspaceId)));
  if (!row?.role) throw transcriptNotFound();
  assertCan(row.role, action);
  return { transcript: row.transcript, workspace: row.workspace, role: row.role };
}

/** A render in one of the actor's workspaces, if the role allows `action`. */
export async function renderFor(
  db: DbOrTx,
  actor: Actor,
  id: string,
  action: WorkspaceAction,
): Promise<RenderJob> {
  const [row] = await db
    .select({ render: renderJobs, role: roleIn(actor, renderJobs.workspaceId) })
    .from(renderJobs)
    .where(and(eq(renderJobs.id, id), inActorsWorkspaces(actor, renderJobs.workspaceId)));
  if (!row?.role) throw renderNotFound();
  assertCan(row.role, action);
  return row.render;
}
