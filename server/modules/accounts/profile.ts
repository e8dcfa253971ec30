import { and, count, eq, inArray, ne } from 'drizzle-orm';
import { users, workspaceMembers, workspaces, type User } from '../../db/schema';
import { WorkspaceCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import { soleOwnerOf } from '../workspaces/workspaces';
import { workspaceFileKeys } from './account-files';
import { hashPassword, isCommonPassword, verifyPassword } from '../auth/passwords';
import { revokeOtherSessions } from '../auth/sessions';
import { revokeAllApiKeys } from '../api-keys/keys';
import type { AccountDeps } from './deps';
import { AuthError } from './errors';

export interface ProfileUpdate {
  name?: string | null;
  language?: string;
  current_password?: string;
  new_password?: string;
  /** With a new password: every API key of the account is revoked too. */
  revoke_api_keys?: boolean;
}

/** Name, language and password; a password change needs the current one and ends other sessions. */
export async function updateProfile(
  deps: AccountDeps,
  user: User,
  sessionToken: string | null,
  input: ProfileUpdate,
): Promise<User> {
  const now = deps.now();
  const set: Partial<typeof users.$inferInsert> = { updatedAt: now };
  if (input.name !== undefined) set.name = input.name?.trim() || null;
  if (input.language !== undefined) set.language = input.language;
  if (input.new_password !== undefined) {
    if (user.passwordHash && !(await verifyPassword(user.passwordHash, input.current_password ?? ''))) {
      throw AuthError.wrongPassword();
    }
    if (isCommonPassword(input.new_password)) throw AuthError.commonPassword();
    set.passwordHash = await hashPassword(input.new_password);
    set.passwordChangedAt = now;
  }
  const [updated] = await deps.db.update(users).set(set).where(eq(users.id, user.id)).returning();
  if (input.new_password !== undefined) {
    await revokeOtherSessions(deps.db, user.id, sessionToken, now);
    if (input.revoke_api_keys) await revokeAllApiKeys(deps.db, user.id);
  }
  return updated!;
}

/**
 * Deletes the account with its personal workspace (rows cascade; files through removeUserFiles),
 * after cancelling its subscriptions (a Stripe failure stops the deletion, so billing never outlives it).
 * What it made in team workspaces stays with the team, its author shown as a former member
 * (docs/decisions/0040-account-deletion-in-teams.md). The only owner of a team with other members
 * is refused, naming the team; a team it is alone in goes with it.
 * Needs the password, or for a Google-only account the typed e-mail address.
 */
export async function deleteAccount(
  deps: AccountDeps,
  user: User,
  confirm: { password?: string; email?: string },
): Promise<void> {
  if (user.passwordHash) {
    if (!(await verifyPassword(user.passwordHash, confirm.password ?? ''))) throw AuthError.wrongPassword();
  } else if ((confirm.email ?? '').trim().toLowerCase() !== user.email) {
    throw AuthError.wrongPassword();
  }
  const alone: string[] = [];
  for (const team of await soleOwnerOf(deps, user.id)) {
    const [others] = await deps.db
      .select({ n: count() })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, team.id), ne(workspaceMembers.userId, user.id)));
    if ((others?.n ?? 0) > 0) {
      throw new ApiError(WorkspaceCode.SOLE_OWNER, 'errors.workspaces.soleOwnerAccount', {
        workspace: team.name ?? '',
        workspace_id: team.id,
      });
    }
    alone.push(team.id);
  }
  await deps.endSubscriptions?.(user.id);
  // The personal workspace's own files (its background picture) go with it too.
  const [personal] = await deps.db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(eq(workspaces.personalUserId, user.id));
  const teamFiles = await workspaceFileKeys(deps.db, personal ? [...alone, personal.id] : alone);
  await deps.db.transaction(async (tx) => {
    if (alone.length) await tx.delete(workspaces).where(inArray(workspaces.id, alone));
    // The personal workspace cascades with the account; team rows keep their data, author null.
    await tx.delete(users).where(eq(users.id, user.id));
  });
  await deps.removeUserFiles?.(user.id, teamFiles);
}
