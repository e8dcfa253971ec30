import { and, eq } from 'drizzle-orm';
import { FolderCode, TranscriptCode } from '../../../common/error-codes';
import { folders, transcripts, type Folder, type Transcript, type User } from '../../db/schema';
import { ApiError } from '../errors';
import type { TranscriptionDeps } from './deps';

// Whose transcripts and folders are whose, checked in one place. Someone else's ids answer
// exactly like missing ones (404), so ids cannot be probed.

export const transcriptNotFound = () => new ApiError(TranscriptCode.NOT_FOUND, 'errors.transcripts.notFound');
export const folderNotFound = () => new ApiError(FolderCode.NOT_FOUND, 'errors.transcripts.folderNotFound');

/** A transcript of this user, or 404. */
export async function ownTranscript(
  deps: Pick<TranscriptionDeps, 'db'>,
  user: User,
  id: string,
): Promise<Transcript> {
  const [row] = await deps.db
    .select()
    .from(transcripts)
    .where(and(eq(transcripts.id, id), eq(transcripts.userId, user.id)));
  if (!row) throw transcriptNotFound();
  return row;
}

/** A folder of this user, or 404. */
export async function ownFolder(
  deps: Pick<TranscriptionDeps, 'db'>,
  user: User,
  id: string,
): Promise<Folder> {
  const [row] = await deps.db
    .select()
    .from(folders)
    .where(and(eq(folders.id, id), eq(folders.userId, user.id)));
  if (!row) throw folderNotFound();
  return row;
}

/** The folder a new or moved transcript goes into: none (null), or one of this user's (else 404). */
export async function targetFolderId(
  deps: Pick<TranscriptionDeps, 'db'>,
  user: User,
  folderId: string | null | undefined,
): Promise<string | null> {
  return folderId ? (await ownFolder(deps, user, folderId)).id : null;
}
