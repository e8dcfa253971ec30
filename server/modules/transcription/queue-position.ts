import { and, count, eq, or, sql } from 'drizzle-orm';
import { transcripts, type Transcript } from '../../db/schema';
import type { TranscriptionDeps } from './deps';

/**
 * How many files will be transcribed before this one: every job running and every job queued
 * earlier (all users: they share the engine). null when the transcript is not waiting.
 */
export async function queuePosition(
  deps: Pick<TranscriptionDeps, 'db'>,
  row: Pick<Transcript, 'status' | 'createdAt'>,
): Promise<number | null> {
  if (row.status !== 'queued') return null;
  const [ahead] = await deps.db
    .select({ n: count() })
    .from(transcripts)
    .where(
      or(
        eq(transcripts.status, 'processing'),
        and(
          eq(transcripts.status, 'queued'),
          sql`${transcripts.createdAt} < ${row.createdAt.toISOString()}::timestamptz`,
        ),
      ),
    );
  return ahead?.n ?? 0;
}
