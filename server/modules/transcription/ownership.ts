import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { FolderCode, TranscriptCode } from '../../../common/error-codes';
import type { WorkspaceAction } from '../../../common/workspace-permissions';
import { folders, transcripts, type Folder, type Transcript } from '../../db/schema';
import { ApiError } from '../errors';
import { assertCan, inActorsWorkspaces, roleIn } from '../workspaces/access';
import type { Actor } from '../workspaces/actor';
import type { TranscriptionDeps } from './deps';
import { summaryColumns, type TranscriptSummary } from './summary-columns';

// Which transcripts and folders a caller reaches, checked in one place (decision 0027): by id,
// through the caller's membership of the row's workspace (in the WHERE clause), then what the
// member's role there allows (common/workspace-permissions `can`). Rows of a workspace the caller
// is not a member of answer exactly like missing ones (404), so ids cannot be probed; a member
// whose role does not allow the action gets 403 with the role.

export const transcriptNotFound = () => new ApiError(TranscriptCode.NOT_FOUND, 'errors.transcripts.notFound');
export const folderNotFound = () => new ApiError(FolderCode.NOT_FOUND, 'errors.transcripts.folderNotFound');

/** The WHERE condition: a transcript of a workspace the actor belongs to. */
export const reachableTranscripts = (actor: Actor): SQL => inActorsWorkspaces(actor, transcripts.workspaceId);

/** The WHERE condition of a list or a bulk call: the transcripts of the actor's current workspace. */
export const currentTranscripts = (actor: Actor): SQL => eq(transcripts.workspaceId, actor.workspace.id);

/** A transcript the actor reaches and may do `action` to, or 404 / 403. */
export async function ownTranscript(
  deps: Pick<TranscriptionDeps, 'db'>,
  actor: Actor,
  id: string,
  action: WorkspaceAction = 'transcript.read',
): Promise<Transcript> {
  const [found] = await deps.db
    .select({ row: transcripts, role: roleIn(actor, transcripts.workspaceId) })
    .from(transcripts)
    .where(and(eq(transcripts.id, id), reachableTranscripts(actor)));
  if (!found?.role) throw transcriptNotFound();
  assertCan(found.role, action);
  return found.row;
}

/**
 * The same check as `ownTranscript`, reading only the row's small columns (no segments, speakers
 * or speech regions): what an event stream needs to answer for a finished transcript, so that many
 * streams opening at once do not each read the whole text.
 */
export async function ownTranscriptSummary(
  deps: Pick<TranscriptionDeps, 'db'>,
  actor: Actor,
  id: string,
): Promise<TranscriptSummary> {
  const [found] = await deps.db
    .select({ row: summaryColumns, role: roleIn(actor, transcripts.workspaceId) })
    .from(transcripts)
    .where(and(eq(transcripts.id, id), reachableTranscripts(actor)));
  if (!found?.role) throw transcriptNotFound();
  assertCan(found.role, 'transcript.read');
  return found.row;
}

/**
 * A bulk call (delete, move, export several) acts on the current workspace's transcripts: its
 * WHERE condition, after checking that the actor's role there allows `action` (403 otherwise).
 * The caller compares what it found with the ids asked for (any missing: 404).
 */
export function bulkTranscripts(actor: Actor, action: WorkspaceAction, ids: string[]): SQL {
  assertCan(actor.role, action);
  return and(currentTranscripts(actor), inArray(transcripts.id, ids))!;
}

/** A folder the actor reaches and may do `action` to, or 404 / 403. */
export async function ownFolder(
  deps: Pick<TranscriptionDeps, 'db'>,
  actor: Actor,
  id: string,
  action: WorkspaceAction = 'folder.read',
): Promise<Folder> {
  const [found] = await deps.db
    .select({ row: folders, role: roleIn(actor, folders.workspaceId) })
    .from(folders)
    .where(and(eq(folders.id, id), inActorsWorkspaces(actor, folders.workspaceId)));
  if (!found?.role) throw folderNotFound();
  assertCan(found.role, action);
  return found.row;
}

/**
 * The folder a new or moved transcript goes into: none (null), or a folder of the workspace the
 * transcript is in (else 404: a folder of another workspace is as good as missing).
 */
export async function targetFolderId(
  deps: Pick<TranscriptionDeps, 'db'>,
  actor: Actor,
  folderId: string | null | undefined,
  workspaceId: string = actor.workspace.id,
): Promise<string | null> {
  if (!folderId) return null;
  const folder = await ownFolder(deps, actor, folderId);
  if (folder.workspaceId !== workspaceId) throw folderNotFound();
  return folder.id;
}
