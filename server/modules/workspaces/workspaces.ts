import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { transcripts, workspaceMembers, workspaces, type User, type Workspace } from '../../db/schema';
import { ErrorCode, WorkspaceCode } from '../../../common/error-codes';
import type { WorkspaceRole } from '../../../common/record-states';
import type { WorkspaceJson } from '../../../common/workspace-types';
import { ApiError } from '../errors';
import { cancelTranscription } from '../transcription/transcribe-jobs';
import type { Actor } from './actor';
import { assertCan, membershipOf } from './access';
import type { WorkspaceDeps } from './deps';
import { workspaceNotFound } from './errors';
import { deleteRenderFiles, renderFilesOf } from '../render/files';
import { backgroundKey } from '../render/background';

/** Team workspaces one account may own: far above what a team needs, low enough to stop abuse. */
export const MAX_OWNED_TEAMS = 20;

export function workspaceJson(w: Workspace, role: WorkspaceRole, members?: number): WorkspaceJson {
  return {
    id: w.id,
    kind: w.kind,
    name: w.name,
    role,
    created_at: w.createdAt.toISOString(),
    ...(members === undefined ? {} : { members }),
  };
}

/** Every workspace the account belongs to: its personal one first, then teams by name. */
export async function listWorkspaces(deps: Pick<WorkspaceDeps, 'db'>, user: Pick<User, 'id'>) {
  const rows = await deps.db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(eq(workspaceMembers.userId, user.id))
    .orderBy(asc(workspaces.kind), asc(workspaces.name), asc(workspaces.createdAt));
  return rows;
}

/** A workspace the actor belongs to, with the actor's role in it; 404 for any other id. */
export async function memberWorkspace(deps: Pick<WorkspaceDeps, 'db'>, actor: Actor, id: string) {
  const found = await membershipOf(deps.db, actor, id);
  if (!found) throw workspaceNotFound();
  return found;
}

export async function memberCount(deps: Pick<WorkspaceDeps, 'db'>, workspaceId: string) {
  const [row] = await deps.db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId));
  return row?.n ?? 0;
}

/** A new team workspace, with its creator as its owner. */
export async function createWorkspace(deps: WorkspaceDeps, user: User, name: string) {
  const [owned] = await deps.db
    .select({ n: count() })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.userId, user.id),
        eq(workspaceMembers.role, 'owner'),
        eq(workspaces.kind, 'team'),
      ),
    );
  if ((owned?.n ?? 0) >= MAX_OWNED_TEAMS) {
    throw new ApiError(WorkspaceCode.TOO_MANY, 'errors.workspaces.tooMany', { limit: MAX_OWNED_TEAMS });
  }
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(workspaces)
      .values({ kind: 'team', name: name.trim(), createdBy: user.id, createdAt: now, updatedAt: now })
      .returning();
    await tx
      .insert(workspaceMembers)
      .values({ workspaceId: created!.id, userId: user.id, role: 'owner', createdAt: now });
    return created!;
  });
}

export async function renameWorkspace(deps: WorkspaceDeps, actor: Actor, id: string, name: string) {
  const { workspace, role } = await memberWorkspace(deps, actor, id);
  assertCan(role, 'workspace.rename', { workspaceKind: workspace.kind });
  if (workspace.kind === 'personal') throw personal();
  const [row] = await deps.db
    .update(workspaces)
    .set({ name: name.trim(), updatedAt: deps.now() })
    .where(eq(workspaces.id, id))
    .returning();
  return { workspace: row!, role };
}

const personal = () => new ApiError(WorkspaceCode.PERSONAL, 'errors.workspaces.personal');

/**
 * Deletes a team workspace with everything in it: running jobs are stopped, media files
 * removed, rows cascade. Only an owner may, and only after typing the workspace's name.
 */
export async function deleteWorkspace(deps: WorkspaceDeps, actor: Actor, id: string, confirmName: string) {
  const { workspace, role } = await memberWorkspace(deps, actor, id);
  if (workspace.kind === 'personal') throw personal();
  assertCan(role, 'workspace.delete', { workspaceKind: workspace.kind });
  if (confirmName.trim() !== (workspace.name ?? '').trim()) {
    throw new ApiError(ErrorCode.VALIDATION, 'errors.workspaces.confirmName', {
      fields: { confirm_name: 'errors.workspaces.confirmName' },
    });
  }
  const inside = await deps.db
    .select({ id: transcripts.id, status: transcripts.status, mediaKey: transcripts.mediaKey })
    .from(transcripts)
    .where(eq(transcripts.workspaceId, id));
  for (const t of inside) {
    if (t.status === 'queued' || t.status === 'processing') await cancelTranscription(deps.queue, t.id);
  }
  const renderFiles = await renderFilesOf(
    deps.db,
    inside.map((t) => t.id),
  );
  await deps.db.delete(workspaces).where(and(eq(workspaces.id, id), eq(workspaces.kind, 'team')));
  await deleteRenderFiles(deps.storage, [...renderFiles, backgroundKey(id)], deps.logger);
  for (const t of inside) {
    if (!t.mediaKey) continue;
    await deps.storage.delete(t.mediaKey).catch((err: unknown) => {
      deps.logger.warn({ err, key: t.mediaKey }, 'could not delete the media of a deleted workspace');
    });
  }
}

/** The team workspaces the account is the only owner of (it cannot leave them). */
export async function soleOwnerOf(deps: Pick<WorkspaceDeps, 'db'>, userId: string): Promise<Workspace[]> {
  const owned = await deps.db
    .select({ workspace: workspaces })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.userId, userId),
        eq(workspaceMembers.role, 'owner'),
        eq(workspaces.kind, 'team'),
      ),
    );
  if (owned.length === 0) return [];
  const owners = await deps.db
    .select({ workspaceId: workspaceMembers.workspaceId, n: count() })
    .from(workspaceMembers)
    .where(
      and(
        inArray(
          workspaceMembers.workspaceId,
          owned.map((o) => o.workspace.id),
        ),
        eq(workspaceMembers.role, 'owner'),
      ),
    )
    .groupBy(workspaceMembers.workspaceId);
  const single = new Set(owners.filter((o) => o.n === 1).map((o) => o.workspaceId));
  return owned.map((o) => o.workspace).filter((w) => single.has(w.id));
}
