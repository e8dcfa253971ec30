import { and, eq, gte, inArray, lt, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { renderJobs } from '../../db/schema';
import { usagePeriod } from '../billing/period';

/**
 * Render minutes a workspace used this calendar month (UTC): renders done, running or waiting
 * count; failed and canceled ones give their minutes back.
 */
export async function renderMinutesUsed(db: DbOrTx, workspaceId: string, now: Date): Promise<number> {
  const { start, end } = usagePeriod(null, now);
  const [row] = await db
    .select({ seconds: sum(renderJobs.durationSec) })
    .from(renderJobs)
    .where(
      and(
        eq(renderJobs.workspaceId, workspaceId),
        inArray(renderJobs.status, ['queued', 'running', 'done']),
        gte(renderJobs.createdAt, start),
        lt(renderJobs.createdAt, end),
      ),
    );
  return Number(row?.seconds ?? 0) / 60;
}
