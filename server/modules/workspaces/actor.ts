import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { workspaceMembers, workspaces, type User, type Workspace } from '../../db/schema';
import type { WorkspaceRole } from '../../../common/record-states';
import { UUID_RE } from '../../../common/validators';
import { WorkspaceCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import { workspaceNotFound } from './errors';

/**
 * Who makes a call, and where (docs/decisions/0027-team-workspaces.md): the account, the current
 * workspace (lists come from it, new objects go to it) and the account's role there, read on
 * every request. Objects found by id are reached through the caller's membership of their own
 * workspace (access.ts), which for an API key is its workspace only.
 */
export interface Actor {
  user: User;
  workspace: Workspace;
  role: WorkspaceRole;
  /** The API key that made the call, which acts in its own workspace only; null for a session. */
  apiKeyId: string | null;
}

/** The membership asked for, or the personal workspace's: one indexed lookup per request. */
const prepared = new WeakMap<Db, ReturnType<typeof prepareCurrent>>();
function prepareCurrent(db: Db) {
  const chosen = sql.placeholder('chosen');
  return db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.userId, sql.placeholder('user')),
        or(eq(workspaces.id, chosen), eq(workspaces.personalUserId, sql.placeholder('user'))),
      ),
    )
    .orderBy(sql`(${workspaces.id} = ${chosen}) desc`)
    .limit(2)
    .prepare('current_workspace');
}

async function membershipOrPersonal(db: Db, userId: string, chosen: string | null) {
  let lookup = prepared.get(db);
  if (!lookup) prepared.set(db, (lookup = prepareCurrent(db)));
  const rows = await lookup.execute({ user: userId, chosen });
  return rows[0] ?? null;
}

export interface WorkspaceChoice {
  /** The X-Workspace header: an explicit choice, refused when it is not one of the caller's. */
  header?: string | null;
  /** The `workspace` cookie: a remembered choice, ignored when it no longer holds. */
  cookie?: string | null;
}

/**
 * The actor of a request. A key acts in its own workspace, as long as its holder is a member
 * there (null otherwise: the caller is unauthorised). A session acts in the workspace the header
 * names (404 unless it is a member there), else the cookie's, else its personal workspace.
 */
export async function resolveActor(
  db: Db,
  auth: { user: User; key?: { id: string; workspaceId: string } | null },
  choice: WorkspaceChoice = {},
): Promise<Actor | null> {
  const header = choice.header?.trim() || null;
  if (header !== null && !UUID_RE.test(header)) throw workspaceNotFound();
  const { user, key } = auth;
  if (key) {
    if (header !== null && header !== key.workspaceId) {
      throw new ApiError(WorkspaceCode.KEY_WORKSPACE, 'errors.workspaces.keyWorkspace');
    }
    const row = await membershipOrPersonal(db, user.id, key.workspaceId);
    if (!row || row.workspace.id !== key.workspaceId) return null;
    return { user, workspace: row.workspace, role: row.role, apiKeyId: key.id };
  }
  const cookie = choice.cookie && UUID_RE.test(choice.cookie) ? choice.cookie : null;
  const chosen = header ?? cookie;
  const row = await membershipOrPersonal(db, user.id, chosen);
  if (header !== null && row?.workspace.id !== header) throw workspaceNotFound();
  if (!row) throw workspaceNotFound();
  return { user, workspace: row.workspace, role: row.role, apiKeyId: null };
}
