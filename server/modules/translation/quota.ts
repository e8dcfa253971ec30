import { and, gte, inArray, lt, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { translationTracks, type Workspace } from '../../db/schema';
import { inPool, workspacePlan, type WorkspacePlan } from '../workspaces/plan';
import { usagePeriod } from '../billing/period';

/**
 * Characters a workspace's plan had translated this calendar month (UTC), over the plan's pool
 * (decision 0041); failed and canceled runs give theirs back.
 */
export async function translationCharsUsed(
  db: DbOrTx,
  plan: Pick<WorkspacePlan, 'holder'>,
  workspaceId: string,
  now: Date,
): Promise<number> {
  const { start, end } = usagePeriod(null, now);
  const [row] = await db
    .select({ chars: sum(translationTracks.chars) })
    .from(translationTracks)
    .where(
      and(
        inPool(db, translationTracks.workspaceId, plan, workspaceId),
        inArray(translationTracks.status, ['queued', 'running', 'done']),
        gte(translationTracks.updatedAt, start),
        lt(translationTracks.updatedAt, end),
      ),
    );
  return Number(row?.chars ?? 0);
}

export interface TranslationQuota {
  /** Characters a month under the plan; null: unlimited (0: the plan has no translations). */
  limit: number | null;
  used: number;
  /** null: unlimited. */
  left: number | null;
}

/** What the translate dialog shows: the plan's monthly characters and what is left of them. */
export async function translationQuota(
  db: DbOrTx,
  workspace: Workspace,
  now: Date,
): Promise<TranslationQuota> {
  const plan = await workspacePlan(db, workspace);
  const { limits } = plan;
  const used = await translationCharsUsed(db, plan, workspace.id, now);
  const limit = limits.translation_chars_per_month;
  return { limit, used, left: limit === null ? null : Math.max(0, limit - used) };
}
