// Which transcripts an actor reaches for AI work: those of the workspaces it belongs to (an API
// key: its own workspace), with the role there deciding what it may do (decision 0027). Someone
// else's transcript answers exactly like a missing one.
import { and, eq } from 'drizzle-orm';
import { transcripts, type Transcript } from '../../db/schema';
import type { WorkspaceRole } from '../../../common/record-states';
import type { WorkspaceAction } from '../../../common/workspace-permissions';
import type { Db } from '../../db/client';
import { assertCan, inActorsWorkspaces, roleIn } from '../workspaces/access';
import type { Actor } from '../workspaces/actor';
import { transcriptNotFound } from '../transcription/ownership';

export async function transcriptFor(
  db: Db,
  actor: Actor,
  id: string,
  action: WorkspaceAction,
): Promise<{ transcript: Transcript; role: WorkspaceRole }> {
  const [row] = await db
    .select({ transcript: transcripts, role: roleIn(actor, transcripts.workspaceId) })
    .from(transcripts)
    .where(and(eq(transcripts.id, id), inActorsWorkspaces(actor, transcripts.workspaceId)));
  if (!row) throw transcriptNotFound();
  // An API key acts with its holder's role in its own workspace.
  const role = row.role ?? actor.role;
  assertCan(role, action);
  return { transcript: row.transcript, role };
}
