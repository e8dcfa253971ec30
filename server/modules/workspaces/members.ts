import { and, asc, count, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { apiKeys, users, workspaceMembers, workspaces, type Workspace } from '../../db/schema';
import type { WorkspaceRole } from '../../../common/record-states';
import type { MemberJson } from '../../../common/workspace-types';
import type { WorkspaceAction } from '../../../common/workspace-permissions';
import type { Actor } from './actor';
import { assertCan, membershipOf } from './access';
import type { WorkspaceDeps } from './deps';
import { memberNotFound, personalWorkspace, workspaceNotFound } from './errors';

export async function listMembers(
  deps: WorkspaceDeps,
  actor: Actor,
  workspaceId: string,
): Promise<MemberJson[]> {
  const found = await membershipOf(deps.db, actor, workspaceId);
  if (!found) throw workspaceNotFound();
  assertCan(found.role, 'member.list');
  const rows = await deps.db
    .select({
      userId: workspaceMembers.userId,
      role: workspaceMembers.role,
      createdAt: workspaceMembers.createdAt,
      email: users.email,
      name: users.name,
    })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(asc(workspaceMembers.createdAt), asc(users.email));
  return rows.map((r) => ({
    user_id: r.userId,
    email: r.email,
    name: r.name,
    role: r.role,
    joined_at: r.createdAt.toISOString(),
  }));
}

/**
 * Runs a change to a workspace's members with the workspace row locked, so two changes at once
 * (two owners stepping each other down, say) are decided one after the other on fresh roles.
 */
async function withMembers<T>(
  deps: WorkspaceDeps,
  actor: Actor,
  workspaceId: string,
  fn: (tx: Tx, ctx: { workspace: Workspace; role: WorkspaceRole; owners: number }) => Promise<T>,
): Promise<T> {
  if (actor.apiKeyId && workspaceId !== actor.workspace.id) throw workspaceNotFound();
  return deps.db.transaction(async (tx) => {
    const [workspace] = await tx
      .select()
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId))
      .for('update');
    const mine = workspace ? await roleOf(tx, workspaceId, actor.user.id) : null;
    if (!workspace || !mine) throw workspaceNotFound();
    const [owners] = await tx
      .select({ n: count() })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'owner')));
    return fn(tx, { workspace, role: mine, owners: owners?.n ?? 0 });
  });
}

async function roleOf(tx: Tx, workspaceId: string, userId: string): Promise<WorkspaceRole | null> {
  const [row] = await tx
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  return row?.role ?? null;
}

/** A member's new role (taking effect on their next request). */
export async function changeRole(
  deps: WorkspaceDeps,
  actor: Actor,
  workspaceId: string,
  userId: string,
  newRole: WorkspaceRole,
) {
  return withMembers(deps, actor, workspaceId, async (tx, { workspace, role, owners }) => {
    // Anyone who cannot manage members learns nothing about who is one.
    assertCan(role, 'member.list');
    const target = await roleOf(tx, workspaceId, userId);
    if (!target) throw memberNotFound();
    assertCan(role, 'member.role', {
      workspaceKind: workspace.kind,
      self: userId === actor.user.id,
      targetRole: target,
      newRole,
      owners,
    });
    await tx
      .update(workspaceMembers)
      .set({ role: newRole })
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
    return { userId, role: newRole };
  });
}

/** Ends a membership: at once, with the API keys the member held in this workspace. */
async function endMembership(tx: Tx, workspaceId: string, userId: string) {
  await tx
    .delete(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  await tx.delete(apiKeys).where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.userId, userId)));
}

export async function removeMember(deps: WorkspaceDeps, actor: Actor, workspaceId: string, userId: string) {
  if (userId === actor.user.id) return leaveWorkspace(deps, actor, workspaceId);
  await withMembers(deps, actor, workspaceId, async (tx, { workspace, role, owners }) => {
    assertCan(role, 'member.list');
    const target = await roleOf(tx, workspaceId, userId);
    if (!target) throw memberNotFound();
    assertCan(role, 'member.remove', { workspaceKind: workspace.kind, targetRole: target, owners });
    await endMembership(tx, workspaceId, userId);
  });
}

export async function leaveWorkspace(deps: WorkspaceDeps, actor: Actor, workspaceId: string) {
  await withMembers(deps, actor, workspaceId, async (tx, { workspace, role, owners }) => {
    if (workspace.kind === 'personal') throw personalWorkspace();
    assertCan(role, 'workspace.leave' satisfies WorkspaceAction, { workspaceKind: workspace.kind, owners });
    await endMembership(tx, workspaceId, actor.user.id);
  });
}

/** Hands the workspace to another member: they become owner, the one handing it over admin. */
export async function transferOwnership(
  deps: WorkspaceDeps,
  actor: Actor,
  workspaceId: string,
  userId: string,
) {
  await withMembers(deps, actor, workspaceId, async (tx, { workspace, role }) => {
    if (workspace.kind === 'personal') throw personalWorkspace();
    assertCan(role, 'workspace.transfer', { workspaceKind: workspace.kind });
    if (userId === actor.user.id) throw memberNotFound();
    const target = await roleOf(tx, workspaceId, userId);
    if (!target) throw memberNotFound();
    await tx
      .update(workspaceMembers)
      .set({ role: 'owner' })
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
    await tx
      .update(workspaceMembers)
      .set({ role: 'admin' })
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, actor.user.id)));
  });
}
