import { and, eq, gte, inArray, lt, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { translationTracks } from '../../db/schema';
import { usagePeriod } from '../billing/period';

/** Characters a workspace had translated this calendar month (UTC); failed and canceled runs give theirs back. */
export async function translationCharsUsed(db: DbOrTx, workspaceId: string, now: Date): Promise<number> {
  const { start, end } = usagePeriod(null, now);
  const [row] = await db
    .select({ chars: sum(translationTracks.chars) })
    .from(translationTracks)
    .where(
      and(
        eq(translationTracks.workspaceId, workspaceId),
        inArray(translationTracks.status, ['queued', 'running', 'done']),
        gte(translationTracks.updatedAt, start),
        lt(translationTracks.updatedAt, end),
      ),
    );
  return Number(row?.chars ?? 0);
}
