import { eq } from 'drizzle-orm';
import { TranscriptCode } from '../../../common/error-codes';
import { transcripts, type Transcript } from '../../db/schema';
import { ApiError } from '../errors';
import { MediaError } from '../media/media-error';
import type { MediaInfo } from '../media/probe';
import { mediaKey } from '../storage/storage';
import type { TranscriptionDeps } from './deps';

/** ffprobe's findings; a file that is not usable media is a 422 saying why (`onRefused` first). */
export async function usableMedia(
  probe: () => Promise<MediaInfo>,
  onRefused?: () => Promise<void>,
): Promise<MediaInfo> {
  try {
    return await probe();
  } catch (err) {
    if (!(err instanceof MediaError)) throw err;
    await onRefused?.();
    throw new ApiError(TranscriptCode.NOT_MEDIA, `errors.media.${err.code}`);
  }
}

/** Moves a finished upload into storage as the transcript's media; returns its storage key. */
export async function attachUpload(
  deps: TranscriptionDeps,
  row: Pick<Transcript, 'id'> & { userId: string },
  upload: { id: string; path: string },
): Promise<string> {
  const key = mediaKey(row.userId, row.id);
  await deps.storage.adoptFile(upload.path, key);
  await deps.uploads.discard(upload.id);
  await deps.db.update(transcripts).set({ mediaKey: key }).where(eq(transcripts.id, row.id));
  return key;
}
