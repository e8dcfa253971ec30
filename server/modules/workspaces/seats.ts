// Who takes a plan's seats (decisions 0043 and 0044): people, counted once over every team
// workspace the plan pays for, so an owner with several teams does not get the bought seats in
// each. A person is an address: a member's account's, or an open invitation's.
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users, workspaceInvitations, workspaceMembers, workspaces, type Workspace } from '../../db/schema';
import type { WorkspaceRole } from '../../../common/record-states';
import type { WorkspaceSeatsJson } from '../../../common/workspace-types';
import { planHolders, poolOf, type WorkspacePlan } from './plan';

/**
 * The team workspaces whose seats one plan pays for: those whose plan holder is `holderId` (the
 * choice `workspacePlan` makes, so a team co-owned with a better-ranked owner draws on theirs),
 * and `workspaceId` itself. Without a holder (no owner left), the one workspace.
 */
export async function seatPool(db: DbOrTx, holderId: string | null, workspaceId: string): Promise<string[]> {
  if (!holderId) return [workspaceId];
  const holders = planHolders(db, poolOf(db, holderId));
  const rows = await db
    .select({ id: holders.workspaceId })
    .from(holders)
    .innerJoin(workspaces, and(eq(workspaces.id, holders.workspaceId), eq(workspaces.kind, 'team')))
    .where(eq(holders.userId, holderId));
  return [...new Set([workspaceId, ...rows.map((r) => r.id)])];
}

/** A workspace and the account holding its plan (`WorkspacePlan.holder`; null: no owner left). */
export interface SeatPoolOf {
  workspace: Pick<Workspace, 'id' | 'kind'>;
  holderId: string | null;
}

/**
 * The people on the seats of a workspace's plan, by lowercased address: the members of every
 * team in its pool (a personal workspace: its own) and, unless `invitations` is false, the
 * addresses of invitations still waiting for an answer. A person in two teams, or a member
 * invited to another team, is one seat; the holder, an owner of every team, is one.
 */
export async function peopleOnSeats(
  db: DbOrTx,
  { workspace, holderId }: SeatPoolOf,
  now: Date,
  opts: { invitations?: boolean } = {},
): Promise<Set<string>> {
  const teams = workspace.kind === 'team' ? await seatPool(db, holderId, workspace.id) : [workspace.id];
  const members = await db
    .selectDistinct({ email: sql<string>`lower(${users.email})` })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(inArray(workspaceMembers.workspaceId, teams));
  const invited =
    opts.invitations === false
      ? []
      : await db
          .selectDistinct({ email: sql<string>`lower(${workspaceInvitations.email})` })
          .from(workspaceInvitations)
          .where(
            and(
              inArray(workspaceInvitations.workspaceId, teams),
              eq(workspaceInvitations.status, 'pending'),
              gt(workspaceInvitations.expiresAt, now),
            ),
          );
  return new Set([...members, ...invited].map((r) => r.email));
}

/** Seats taken on the plan a workspace works under: people counted once over its pool. */
export async function seatsTaken(db: DbOrTx, pool: SeatPoolOf, now: Date): Promise<number> {
  return (await peopleOnSeats(db, pool, now)).size;
}

/** A workspace's seats as its settings page shows them to `viewer`, with how they may change them. */
export async function workspaceSeats(
  db: DbOrTx,
  workspace: Pick<Workspace, 'id' | 'kind'>,
  plan: WorkspacePlan,
  viewer: { id: string; role: WorkspaceRole },
  now: Date,
): Promise<WorkspaceSeatsJson> {
  const taken = await seatsTaken(db, { workspace, holderId: plan.holder?.id ?? null }, now);
  const owner = workspace.kind === 'team' && viewer.role === 'owner';
  // Only the subscription's own account can change its quantity; a co-owner sees the count.
  const change = !owner
    ? null
    : plan.seatsBilled
      ? plan.holder?.id === viewer.id
        ? 'update'
        : null
      : 'plans';
  return { taken, total: plan.seats, max: workspace.kind === 'team' ? plan.limits.seats : 1, change };
}
