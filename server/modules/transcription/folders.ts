import { and, asc, count, eq } from 'drizzle-orm';
import { folders, transcripts } from '../../db/schema';
import { FolderCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import { assertCan, inActorsWorkspaces } from '../workspaces/access';
import type { Actor } from '../workspaces/actor';
import type { TranscriptionDeps } from './deps';
import { cancelTranscription } from './transcribe-jobs';
import { ownFolder } from './ownership';
import { deleteRenderFiles, renderFilesOf } from '../render/files';

/** A generous cap: folders are one level, and a list this long is already hard to use. */
export const MAX_FOLDERS = 500;

/** The current workspace's folders with how many transcripts each holds. */
export async function listFolders(deps: TranscriptionDeps, actor: Actor) {
  assertCan(actor.role, 'folder.read');
  const rows = await deps.db
    .select({
      id: folders.id,
      name: folders.name,
      createdAt: folders.createdAt,
      count: count(transcripts.id),
    })
    .from(folders)
    .leftJoin(transcripts, eq(transcripts.folderId, folders.id))
    .where(eq(folders.workspaceId, actor.workspace.id))
    .groupBy(folders.id)
    .orderBy(asc(folders.name));
  return rows;
}

async function assertNameFree(deps: TranscriptionDeps, workspaceId: string, name: string, except?: string) {
  const same = await deps.db
    .select({ id: folders.id, name: folders.name })
    .from(folders)
    .where(eq(folders.workspaceId, workspaceId));
  const lower = name.toLocaleLowerCase();
  if (same.some((f) => f.id !== except && f.name.toLocaleLowerCase() === lower)) {
    throw new ApiError(FolderCode.NAME_TAKEN, 'errors.folders.nameTaken');
  }
  return same.length;
}

/** A folder in the current workspace. */
export async function createFolder(deps: TranscriptionDeps, actor: Actor, name: string) {
  assertCan(actor.role, 'folder.manage');
  const existing = await assertNameFree(deps, actor.workspace.id, name);
  if (existing >= MAX_FOLDERS) {
    throw new ApiError(FolderCode.TOO_MANY, 'errors.folders.tooMany', { limit: MAX_FOLDERS });
  }
  const [row] = await deps.db
    .insert(folders)
    .values({ workspaceId: actor.workspace.id, userId: actor.user.id, name })
    .returning();
  return row!;
}

export async function renameFolder(deps: TranscriptionDeps, actor: Actor, id: string, name: string) {
  const folder = await ownFolder(deps, actor, id, 'folder.manage');
  await assertNameFree(deps, folder.workspaceId, name, id);
  const [row] = await deps.db
    .update(folders)
    .set({ name, updatedAt: deps.now() })
    .where(and(eq(folders.id, id), inActorsWorkspaces(actor, folders.workspaceId)))
    .returning();
  return row!;
}

/**
 * Deletes a folder. Its transcripts move to the root, or — when the member chose so — are
 * deleted too, media included (running jobs are stopped first). `folder.manage` needs the same
 * role as `transcript.delete` (editor), so one check covers both.
 */
export async function deleteFolder(
  deps: TranscriptionDeps,
  actor: Actor,
  id: string,
  contents: 'move' | 'delete',
) {
  const folder = await ownFolder(deps, actor, id, 'folder.manage');
  if (contents === 'delete') {
    const inFolder = and(eq(transcripts.folderId, id), eq(transcripts.workspaceId, folder.workspaceId));
    const inside = await deps.db
      .select({ id: transcripts.id, status: transcripts.status, mediaKey: transcripts.mediaKey })
      .from(transcripts)
      .where(inFolder);
    for (const t of inside) {
      if (t.status === 'queued' || t.status === 'processing') await cancelTranscription(deps.queue, t.id);
    }
    const renderFiles = await renderFilesOf(
      deps.db,
      inside.map((t) => t.id),
    );
    if (inside.length) await deps.db.delete(transcripts).where(inFolder);
    for (const t of inside) if (t.mediaKey) await deps.storage.delete(t.mediaKey);
    await deleteRenderFiles(deps.storage, renderFiles, deps.logger);
  }
  // Transcripts left inside fall back to the root (folder_id ON DELETE SET NULL).
  await deps.db
    .delete(folders)
    .where(and(eq(folders.id, id), inActorsWorkspaces(actor, folders.workspaceId)));
}
