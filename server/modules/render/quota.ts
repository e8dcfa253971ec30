import { and, gte, inArray, lt, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { renderJobs } from '../../db/schema';
import { usagePeriod } from '../billing/period';
import { inPool, type WorkspacePlan } from '../workspaces/plan';

/**
 * Render minutes a workspace's plan used this calendar month (UTC), over the plan's pool (decision
 * 0041): renders done, running or waiting count; failed and canceled ones give their minutes back.
 */
export async function renderMinutesUsed(
  db: DbOrTx,
  plan: Pick<WorkspacePlan, 'holder'>,
  workspaceId: string,
  now: Date,
): Promise<number> {
  const { start, end } = usagePeriod(null, now);
  const [row] = await db
    .select({ seconds: sum(renderJobs.durationSec) })
    .from(renderJobs)
    .where(
      and(
        inPool(db, renderJobs.workspaceId, plan, workspaceId),
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
  plan: Pick<WorkspacePlan, 'holder' | 'limits'>,
  now: Date,
): Promise<RenderQuota> {
  const used = await renderMinutesUsed(db, plan, workspaceId, now);
  const { limits } = plan;
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
