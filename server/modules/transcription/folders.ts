import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { folders, transcripts, type User } from '../../db/schema';
import { FolderCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import type { TranscriptionDeps } from './deps';
import { cancelTranscription } from './transcribe-jobs';
import { ownFolder } from './ownership';

/** A generous cap: folders are one level, and a list this long is already hard to use. */
export const MAX_FOLDERS = 500;

export async function listFolders(deps: TranscriptionDeps, user: User) {
  const rows = await deps.db
    .select({
      id: folders.id,
      name: folders.name,
      createdAt: folders.createdAt,
      count: count(transcripts.id),
    })
    .from(folders)
    .leftJoin(transcripts, eq(transcripts.folderId, folders.id))
    .where(eq(folders.userId, user.id))
    .groupBy(folders.id)
    .orderBy(asc(folders.name));
  return rows;
}

async function assertNameFree(deps: TranscriptionDeps, user: User, name: string, except?: string) {
  const same = await deps.db
    .select({ id: folders.id, name: folders.name })
    .from(folders)
    .where(eq(folders.userId, user.id));
  const lower = name.toLocaleLowerCase();
  if (same.some((f) => f.id !== except && f.name.toLocaleLowerCase() === lower)) {
    throw new ApiError(FolderCode.NAME_TAKEN, 'errors.folders.nameTaken');
  }
  return same.length;
}

export async function createFolder(deps: TranscriptionDeps, user: User, name: string) {
  const existing = await assertNameFree(deps, user, name);
  if (existing >= MAX_FOLDERS) {
    throw new ApiError(FolderCode.TOO_MANY, 'errors.folders.tooMany', { limit: MAX_FOLDERS });
  }
  const [row] = await deps.db.insert(folders).values({ userId: user.id, name }).returning();
  return row!;
}

export async function renameFolder(deps: TranscriptionDeps, user: User, id: string, name: string) {
  await ownFolder(deps, user, id);
  await assertNameFree(deps, user, name, id);
  const [row] = await deps.db
    .update(folders)
    .set({ name, updatedAt: deps.now() })
    .where(and(eq(folders.id, id), eq(folders.userId, user.id)))
    .returning();
  return row!;
}

/**
 * Deletes a folder. Its transcripts move to the root, or — when the user chose so — are deleted
 * too, media included (running jobs are stopped first).
 */
export async function deleteFolder(
  deps: TranscriptionDeps,
  user: User,
  id: string,
  contents: 'move' | 'delete',
) {
  await ownFolder(deps, user, id);
  if (contents === 'delete') {
    const inside = await deps.db
      .select({ id: transcripts.id, status: transcripts.status, mediaKey: transcripts.mediaKey })
      .from(transcripts)
      .where(and(eq(transcripts.folderId, id), eq(transcripts.userId, user.id)));
    for (const t of inside) {
      if (t.status === 'queued' || t.status === 'processing') await cancelTranscription(deps.queue, t.id);
    }
    if (inside.length) {
      await deps.db.delete(transcripts).where(
        and(
          eq(transcripts.userId, user.id),
          inArray(
            transcripts.id,
            inside.map((t) => t.id),
          ),
        ),
      );
    }
    for (const t of inside) if (t.mediaKey) await deps.storage.delete(t.mediaKey);
  }
  // Transcripts left inside fall back to the root (folder_id ON DELETE SET NULL).
  await deps.db.delete(folders).where(and(eq(folders.id, id), eq(folders.userId, user.id)));
}
