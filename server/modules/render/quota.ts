import { and, eq, gte, inArray, lt, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { renderJobs } from '../../db/schema';
import { usagePeriod } from '../billing/period';
import type { RankLimits } from '../../../common/ranks';

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

/** What the render dialog shows of the plan: minutes used and left this month, cap and mark. */
export interface RenderQuota {
  /** null: unlimited. */
  minutes_per_month: number | null;
  minutes_used: number;
  /** null: unlimited. */
  minutes_left: number | null;
  max_resolution: number;
  watermark: boolean;
}

export async function renderQuota(
  db: DbOrTx,
  workspaceId: string,
  limits: RankLimits,
  now: Date,
): Promise<RenderQuota> {
  const used = await renderMinutesUsed(db, workspaceId, now);
  const perMonth = limits.render_minutes_per_month;
  // Tenths of a minute, rounded down for what is left (never promise a second too many).
  return {
    minutes_per_month: perMonth,
    minutes_used: Math.ceil(used * 10) / 10,
    minutes_left: perMonth === null ? null : Math.max(0, Math.floor((perMonth - used) * 10) / 10),
    max_resolution: limits.render_max_resolution,
    watermark: limits.render_watermark,
  };
}
