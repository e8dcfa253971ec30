import { and, eq, getTableName, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { workspaceMembers, workspaces, type Workspace } from '../../db/schema';
import type { WorkspaceRole } from '../../../common/record-states';
import { can, type ActionObject, type WorkspaceAction } from '../../../common/workspace-permissions';
import type { Actor } from './actor';
import { roleForbids } from './errors';

/**
 * The column with its table's name, always: Drizzle leaves a column of a one-table query bare,
 * and a bare "workspace_id" inside the subqueries below would be the members' own column.
 */
const qualified = (column: AnyPgColumn): SQL =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * The ownership condition of every query on a workspace's rows: the row's workspace is one the
 * actor belongs to (for an API key: its own workspace). Written as a subquery on the members'
 * primary key, so a list or a lookup by id costs one index probe more than before.
 */
export function inActorsWorkspaces(actor: Actor, column: AnyPgColumn): SQL {
  if (actor.apiKeyId) return sql`${qualified(column)} = ${actor.workspace.id}`;
  return sql`exists (select 1 from ${workspaceMembers} m where m.workspace_id = ${qualified(column)} and m.user_id = ${actor.user.id})`;
}

/** The actor's role in the workspace `column` holds, as a select column (null: not a member). */
export function roleIn(actor: Actor, column: AnyPgColumn): SQL<WorkspaceRole | null> {
  return sql<WorkspaceRole | null>`(select m.role from ${workspaceMembers} m where m.workspace_id = ${qualified(column)} and m.user_id = ${actor.user.id})`;
}

/** Throws 403 with the role unless `role` may do `action` (to `object`). */
export function assertCan(role: WorkspaceRole, action: WorkspaceAction, object: ActionObject = {}): void {
  if (!can({ role }, action, object)) throw roleForbids(role, action);
}

/** The actor's membership of one workspace (with the workspace), or null. */
export async function membershipOf(
  db: DbOrTx,
  actor: Actor,
  workspaceId: string,
): Promise<{ workspace: Workspace; role: WorkspaceRole } | null> {
  if (actor.apiKeyId && workspaceId !== actor.workspace.id) return null;
  if (workspaceId === actor.workspace.id) return { workspace: actor.workspace, role: actor.role };
  const [row] = await db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, actor.user.id)))
    .limit(1);
  return row ?? null;
}

/** Whether the actor is (still) a member of a workspace: one primary-key probe. */
export async function isMember(db: DbOrTx, actor: Actor, workspaceId: string): Promise<boolean> {
  if (actor.apiKeyId && workspaceId !== actor.workspace.id) return false;
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, actor.user.id)))
    .limit(1);
  return !!row;
}
