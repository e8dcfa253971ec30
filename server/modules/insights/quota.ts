// AI actions per month (common/ranks.ts ai_actions_per_month): each summary, chapters, answer or
// template run asked for is one action of the transcript's workspace, charged when it is asked
// for and given back when it fails. Months are calendar months (UTC): a team's members share them,
// and the count is over the plan's pool (every workspace its holder owns, decision 0041), so
// making more workspaces never makes more actions.
import { and, count, eq, gte, lt } from 'drizzle-orm';
import { InsightCode } from '../../../common/error-codes';
import { RANKS, RANK_LIMITS, standardRank } from '../../../common/ranks';
import type { AiUsageJson } from '../../../common/insights';
import type { DbOrTx } from '../../db/client';
import { aiActions, workspaces, type Workspace } from '../../db/schema';
import { ApiError } from '../errors';
import { inPool, workspacePlan } from '../workspaces/plan';

export function monthOf(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

export async function aiUsage(db: DbOrTx, workspace: Workspace, now: Date): Promise<AiUsageJson> {
  const { start, end } = monthOf(now);
  const plan = await workspacePlan(db, workspace);
  const [row] = await db
    .select({ n: count() })
    .from(aiActions)
    .where(
      and(
        inPool(db, aiActions.workspaceId, plan, workspace.id),
        gte(aiActions.createdAt, start),
        lt(aiActions.createdAt, end),
      ),
    );
  return { used: row?.n ?? 0, limit: plan.limits.ai_actions_per_month };
}

/** The cheapest standard rank above `rankName` with more AI actions, for the upgrade hint. */
function betterRank(rankName: string, limit: number): string | null {
  const from = RANKS.indexOf(standardRank(rankName) ?? 'Enterprise');
  const next = RANKS.slice(from + 1).find((r) => {
    const l = RANK_LIMITS[r].ai_actions_per_month;
    return r !== 'Enterprise' && (l === null || l > limit);
  });
  return next ?? null;
}

/**
 * Charges one action to the workspace, or refuses (403, a plan limit) when the month's are spent.
 * Returns the action's id, to give it back if the work fails.
 */
export async function chargeAction(
  db: DbOrTx,
  opts: { workspaceId: string; userId: string; transcriptId: string | null; kind: string; now: Date },
): Promise<string> {
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, opts.workspaceId));
  if (!workspace) throw new ApiError(InsightCode.NOT_FOUND, 'errors.insights.notFound');
  const usage = await aiUsage(db, workspace, opts.now);
  if (usage.limit !== null && usage.used >= usage.limit) {
    const plan = await workspacePlan(db, workspace);
    throw new ApiError(InsightCode.QUOTA_EXCEEDED, 'errors.insights.quotaExceeded', {
      limit: usage.limit,
      count: usage.limit,
      rank: betterRank(plan.rankName, usage.limit),
    });
  }
  const [row] = await db
    .insert(aiActions)
    .values({
      workspaceId: opts.workspaceId,
      userId: opts.userId,
      transcriptId: opts.transcriptId,
      kind: opts.kind,
      createdAt: opts.now,
    })
    .returning({ id: aiActions.id });
  return row!.id;
}

/** Gives back the action of work that failed. */
export async function refundAction(db: DbOrTx, id: string): Promise<void> {
  await db.delete(aiActions).where(eq(aiActions.id, id));
}
