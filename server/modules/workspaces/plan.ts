import { and, count, eq, gt, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users, workspaceInvitations, workspaceMembers, type Workspace } from '../../db/schema';
import { RANKS, limitsFor, standardRank, type RankLimits } from '../../../common/ranks';

export interface WorkspacePlan {
  rankName: string;
  limits: RankLimits;
  /** Members the workspace may have. */
  seats: number;
}

const rankOrder = (name: string) => RANKS.indexOf(standardRank(name) ?? 'Enterprise');

/**
 * The plan a workspace works under. A personal workspace has its account's plan; a team
 * workspace, until it is billed on its own, the best plan among its owners.
 */
export async function workspacePlan(db: DbOrTx, workspace: Workspace): Promise<WorkspacePlan> {
  const holders = workspace.personalUserId
    ? await db
        .select({ rankName: users.rankName, customLimits: users.customLimits })
        .from(users)
        .where(eq(users.id, workspace.personalUserId))
    : await db
        .select({ rankName: users.rankName, customLimits: users.customLimits })
        .from(workspaceMembers)
        .innerJoin(users, eq(users.id, workspaceMembers.userId))
        .where(and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.role, 'owner')));
  const best = holders.sort((a, b) => rankOrder(b.rankName) - rankOrder(a.rankName))[0] ?? {
    rankName: 'Free',
    customLimits: null,
  };
  const limits = limitsFor(best.rankName, best.customLimits);
  return { rankName: best.rankName, limits, seats: workspace.kind === 'personal' ? 1 : limits.seats };
}

/** Seats taken: members, and invitations still waiting for their answer. */
export async function seatsTaken(db: DbOrTx, workspaceId: string, now: Date): Promise<number> {
  const [members] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId));
  const [pending] = await db
    .select({ n: count() })
    .from(workspaceInvitations)
    .where(
      and(
        eq(workspaceInvitations.workspaceId, workspaceId),
        inArray(workspaceInvitations.status, ['pending']),
        gt(workspaceInvitations.expiresAt, now),
      ),
    );
  return (members?.n ?? 0) + (pending?.n ?? 0);
}
