import { eq } from 'drizzle-orm';
import { users, type User } from '../../db/schema';
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
 * Deletes the account with everything it owns (rows cascade; files through removeUserFiles),
 * after cancelling its subscriptions (a Stripe failure stops the deletion, so billing never outlives it).
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
  await deps.endSubscriptions?.(user.id);
  await deps.removeUserFiles?.(user.id);
  await deps.db.delete(users).where(eq(users.id, user.id));
}
