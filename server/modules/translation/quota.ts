import { and, eq, gte, inArray, lt, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { translationTracks, type Workspace } from '../../db/schema';
import { workspacePlan } from '../workspaces/plan';
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
  const { limits } = await workspacePlan(db, workspace);
  const used = await translationCharsUsed(db, workspace.id, now);
  const limit = limits.translation_chars_per_month;
  return { limit, used, left: limit === null ? null : Math.max(0, limit - used) };
}
