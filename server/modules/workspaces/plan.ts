import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { LIVE_STATUSES } from '../billing/rank';
import {
  subscriptions,
  users,
  workspaceMembers,
  workspaces,
  type User,
  type Workspace,
} from '../../db/schema';
import { RANKS, limitsFor, standardRank, type RankLimits } from '../../../common/ranks';

export interface WorkspacePlan {
  rankName: string;
  limits: RankLimits;
  /**
   * Members the workspace may have: a team's are the seats its holder's Stripe subscription
   * bought (its quantity, decision 0043) up to the rank's `seats`; the rank's when the plan is not
   * paid through Stripe (an admin's grant, Enterprise terms); a personal workspace's, one.
   */
  seats: number;
  /** More seats can be bought on this plan (a subscription update), short of a better plan. */
  canAddSeats: boolean;
  /** A team's seats are the quantity of its holder's Stripe subscription (changed there). */
  seatsBilled: boolean;
  /**
   * The account whose plan it is (the personal workspace's account, or the team's best-ranked
   * owner): its usage period, and whose pool of minutes the workspace draws on. Null: no owner.
   */
  holder: Pick<User, 'id' | 'periodAnchor'> | null;
}

const rankOrder = (name: string) => RANKS.indexOf(standardRank(name) ?? 'Enterprise');

/**
 * The plan a workspace works under. A personal workspace has its account's plan; a team
 * workspace, until it is billed on its own, the best plan among its owners.
 */
export async function workspacePlan(db: DbOrTx, workspace: Workspace): Promise<WorkspacePlan> {
  const columns = {
    id: users.id,
    periodAnchor: users.periodAnchor,
    rankName: users.rankName,
    customLimits: users.customLimits,
    grantedRank: users.grantedRank,
  };
  const holders = workspace.personalUserId
    ? await db.select(columns).from(users).where(eq(users.id, workspace.personalUserId))
    : await db
        .select(columns)
        .from(workspaceMembers)
        .innerJoin(users, eq(users.id, workspaceMembers.userId))
        .where(and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.role, 'owner')))
        // Of owners with the same rank the earliest holds the plan, as in `planHolders`.
        .orderBy(asc(workspaceMembers.createdAt));
  const best = holders.sort((a, b) => rankOrder(b.rankName) - rankOrder(a.rankName))[0];
  const limits = limitsFor(best?.rankName ?? 'Free', best?.customLimits ?? null);
  const bought = workspace.kind === 'team' && best ? await seatsBought(db, best) : null;
  const seats = workspace.kind === 'personal' ? 1 : Math.min(bought ?? limits.seats, limits.seats);
  return {
    rankName: best?.rankName ?? 'Free',
    limits,
    seats,
    canAddSeats: workspace.kind === 'team' && bought !== null && seats < limits.seats,
    seatsBilled: workspace.kind === 'team' && bought !== null,
    holder: best ? { id: best.id, periodAnchor: best.periodAnchor } : null,
  };
}

/** `rankOrder` in SQL: a standard rank's place in RANKS, anything else Enterprise's. */
const rankOrderSql = sql`case lower(${users.rankName}) ${sql.join(
  RANKS.map((r, i) => sql.raw(`when '${r.toLowerCase()}' then ${i}`)),
  sql` `,
)} else ${RANKS.indexOf('Enterprise')} end`;

/**
 * Every workspace's plan holder as a subquery (what `workspacePlan` picks, for many workspaces
 * in one query): the owner with the best rank, the earliest of equals, per workspace; `among`
 * narrows it to some workspaces. A personal workspace's one owner is its account. A workspace
 * with no owner left has no row (Free, as in `workspacePlan`).
 */
export function planHolders(db: DbOrTx, among?: SQL | ReturnType<typeof poolOf>) {
  return db
    .selectDistinctOn([workspaceMembers.workspaceId], {
      workspaceId: workspaceMembers.workspaceId,
      userId: users.id,
      rankName: users.rankName,
      customLimits: users.customLimits,
      rankChangedAt: users.rankChangedAt,
    })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(
      and(
        eq(workspaceMembers.role, 'owner'),
        among ? inArray(workspaceMembers.workspaceId, among) : undefined,
      ),
    )
    .orderBy(workspaceMembers.workspaceId, desc(rankOrderSql), asc(workspaceMembers.createdAt))
    .as('plan_holders');
}

/**
 * The seats the holder's plan bought through Stripe: the quantity of the live subscription that
 * sells their rank. null when the rank is not from Stripe (an admin's grant, set by hand).
 */
async function seatsBought(
  db: DbOrTx,
  holder: { id: string; rankName: string; grantedRank: string | null },
): Promise<number | null> {
  if (holder.grantedRank) return null;
  const [sub] = await db
    .select({ quantity: subscriptions.quantity })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, holder.id),
        inArray(subscriptions.status, LIVE_STATUSES),
        sql`lower(${subscriptions.rank}) = ${holder.rankName.toLowerCase()}`,
      ),
    )
    .orderBy(desc(subscriptions.updatedAt))
    .limit(1);
  return sub ? sub.quantity : null;
}

/** workspacePlan for a workspace known by id (null: no such workspace). */
export async function workspacePlanById(db: DbOrTx, workspaceId: string): Promise<WorkspacePlan | null> {
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  return workspace ? workspacePlan(db, workspace) : null;
}

/**
 * A workspace's plan in the shape the limit checks read (`limitsFor(rankName, customLimits)`
 * gives its limits back), for a workspace known by id; Free when it is gone.
 */
export async function planLimits(
  db: DbOrTx,
  workspaceId: string,
): Promise<{ rankName: string; customLimits: RankLimits }> {
  const plan = await workspacePlanById(db, workspaceId);
  return plan
    ? { rankName: plan.rankName, customLimits: plan.limits }
    : { rankName: 'Free', customLimits: limitsFor('Free', null) };
}

/**
 * The workspaces one plan pays for: those its holder owns (the personal one and their teams).
 * Minutes, jobs at once and the other monthly counts are pooled over them, so a team uses its
 * owner's plan and creating more workspaces never makes more minutes.
 */
export function poolOf(db: DbOrTx, holderId: string) {
  return db
    .select({ id: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.userId, holderId), eq(workspaceMembers.role, 'owner')));
}

/**
 * The rows a plan's monthly counts are summed over (`column` is a table's workspace_id): every
 * workspace of the holder's pool, or the one workspace when no owner is left to hold it. AI
 * actions, translation characters and render minutes are counted this way, like the minutes.
 */
export function inPool(
  db: DbOrTx,
  column: AnyPgColumn,
  plan: Pick<WorkspacePlan, 'holder'>,
  workspaceId: string,
): SQL {
  return plan.holder ? inArray(column, poolOf(db, plan.holder.id)) : eq(column, workspaceId);
}
