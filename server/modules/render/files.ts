import { and, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import { DAY_MS } from '../../../common/dates';
import type { DbOrTx } from '../../db/client';
import { renderJobs } from '../../db/schema';
import type { Logger } from '../../logger';
import type { Storage } from '../storage/storage';

// Rendered MP4s are copies the user downloads, not the record: they are kept a fixed window after
// they were made (docs/decisions/0029-captioned-video.md), and go at once with their transcript.

/** A finished captioned video's file is kept this long after it was made. */
export const RENDER_KEEP_DAYS = 30;
/** A preview's file, only this long (it is seen in the dialog, then not needed). */
export const PREVIEW_KEEP_MS = 3_600_000;

/** The stored files of these transcripts' renders (read before the rows go with the transcripts). */
export async function renderFilesOf(db: DbOrTx, transcriptIds: string[]): Promise<string[]> {
  if (transcriptIds.length === 0) return [];
  const rows = await db
    .select({ key: renderJobs.outputKey })
    .from(renderJobs)
    .where(and(inArray(renderJobs.transcriptId, transcriptIds), isNotNull(renderJobs.outputKey)));
  return rows.map((r) => r.key!);
}

/** Removes stored render files; one that cannot be removed is logged, never stops the rest. */
export async function deleteRenderFiles(storage: Storage, keys: string[], logger?: Logger): Promise<void> {
  for (const key of keys) {
    await storage
      .delete(key)
      .catch((err: unknown) => logger?.warn({ err, key }, 'could not delete a render file'));
  }
}

/**
 * The hourly sweep's part for renders: files past their window are deleted and the row keeps its
 * history without a file (the dialog says "Expired"). Returns how many files went.
 */
export async function sweepExpiredRenders(
  deps: { db: DbOrTx; storage: Storage; now: () => Date; logger: Logger },
  batch = 500,
): Promise<number> {
  const now = deps.now().getTime();
  const rows = await deps.db
    .select({ id: renderJobs.id, key: renderJobs.outputKey })
    .from(renderJobs)
    .where(
      and(
        isNotNull(renderJobs.outputKey),
        or(
          lt(renderJobs.createdAt, new Date(now - RENDER_KEEP_DAYS * DAY_MS)),
          and(
            sql`(${renderJobs.options} ->> 'preview') = 'true'`,
            lt(renderJobs.createdAt, new Date(now - PREVIEW_KEEP_MS)),
          ),
        ),
      ),
    )
    .limit(batch);
  if (rows.length === 0) return 0;
  await deps.db
    .update(renderJobs)
    .set({ outputKey: null })
    .where(
      inArray(
        renderJobs.id,
        rows.map((r) => r.id),
      ),
    );
  await deleteRenderFiles(
    deps.storage,
    rows.map((r) => r.key!),
    deps.logger,
  );
  deps.logger.info({ files: rows.length }, 'render files past their window deleted');
  return rows.length;
}
