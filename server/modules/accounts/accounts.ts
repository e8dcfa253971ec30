import { eq } from 'drizzle-orm';
import { users, type User } from '../../db/schema';
import { assertAllowed, clearFailures, consume, recordFailure, type LimitName } from '../auth/rate-limits';
import { hashPassword, isCommonPassword, verifyPassword } from '../auth/passwords';
import { createSession, loggedInFrom, revokeOtherSessions } from '../auth/sessions';
import { isLocale, DEFAULT_LOCALE, type Locale } from '../../../common/locales';
import type { AccountDeps, RequestMeta } from './deps';
import { AuthError } from './errors';
import { checkVerifyCode, consumeToken, findLiveToken } from './email-tokens';
import { revokeAllApiKeys } from '../api-keys/keys';

export interface SessionResult {
  user: User;
  token: string;
}

export const langOf = (l: string): Locale => (isLocale(l) ? l : DEFAULT_LOCALE);

export async function findUserByEmail(deps: Pick<AccountDeps, 'db'>, email: string): Promise<User | null> {
  const [u] = await deps.db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return u ?? null;
}

/**
 * Sign-up. The answer is the same for a new, a pending and a registered address, so it
 * never tells whether an address has an account; what differs is the mail its owner gets:
 * - new: the account is created unverified, with a verification mail (code and link);
 * - pending (not verified yet), same password: the verification mail again (a re-send);
 * - pending, another password: nothing changes (the first sign-up keeps its password, name and
 *   referral: only the mailbox's owner may replace them), its codes stop working, and the mail
 *   offers a link to choose the password — whoever holds the mailbox decides (docs/decisions/0006);
 * - verified: nothing changes; the owner is told someone tried, with links to log in or reset.
 */
export async function signup(
  deps: AccountDeps,
  input: { email: string; password: string; name?: string },
  meta: RequestMeta & { refCode: string | null },
): Promise<{ email: string }> {
  await consume(deps.limiters, [['signupIp', meta.ip]]);
  if (isCommonPassword(input.password)) throw AuthError.commonPassword();
  // The mail limits apply to every address alike, before anything changes.
  await consume(deps.limiters, [
    ['resendMinute', input.email],
    ['resendDay', input.email],
  ]);
  const existing = await findUserByEmail(deps, input.email);
  const pending = existing && !existing.emailVerified ? existing : null;
  // One argon2 computation on every path: checking a pending password costs what hashing a new one does.
  const samePassword = pending ? await verifyPassword(pending.passwordHash, input.password) : false;
  const passwordHash = pending ? null : await hashPassword(input.password);
  // The rest (rows, tokens, the mail) depends on the address: a job, so the answer cannot tell.
  await deps.queueAccountMail({
    kind: 'signup',
    email: input.email,
    name: input.name || null,
    passwordHash,
    samePassword,
    refCode: meta.refCode,
    lang: langOf(meta.lang),
    origin: meta.origin,
  });
  return { email: input.email };
}

/** Sends a fresh code; the same answer (and the same work) whatever the address. */
export async function resendActivation(deps: AccountDeps, email: string, meta: RequestMeta): Promise<void> {
  await consume(deps.limiters, [
    ['resendMinute', email],
    ['resendDay', email],
  ]);
  await deps.queueAccountMail({ kind: 'resend', email, origin: meta.origin });
}

/** Verifies by typed code (with the e-mail) or by the link's token, then logs in. */
export async function completeSignup(
  deps: AccountDeps,
  input: { email: string; code: string } | { token: string },
  meta: RequestMeta,
): Promise<SessionResult> {
  await consume(deps.limiters, [['verifyIp', meta.ip]]);
  const now = deps.now();
  let userId: string;
  let tokenId: string;
  if ('token' in input) {
    const row = await findLiveToken(deps.db, input.token, 'verify', now);
    if (!row) throw AuthError.invalidToken();
    userId = row.userId;
    tokenId = row.id;
  } else {
    const user = await findUserByEmail(deps, input.email);
    const row = user ? await checkVerifyCode(deps.db, user.id, input.code, now) : null;
    if (!user || !row) throw AuthError.invalidCode();
    userId = user.id;
    tokenId = row.id;
  }
  if (!(await consumeToken(deps.db, tokenId, now))) throw AuthError.invalidToken();
  const [user] = await deps.db
    .update(users)
    .set({ emailVerified: true, updatedAt: now })
    .where(eq(users.id, userId))
    .returning();
  const token = await createSession(deps.db, user!.id, meta, now);
  return { user: user!, token };
}

/** The same error for an unknown address and a wrong password; unverified accounts get their own. */
export async function login(
  deps: AccountDeps,
  input: { email: string; password: string },
  meta: RequestMeta,
): Promise<SessionResult> {
  await consume(deps.limiters, [['loginIp', meta.ip]]);
  const user = await findUserByEmail(deps, input.email);
  // Failures count per account and address; per account only from addresses that never logged in
  // to it, so nobody can lock the owner out of the places they log in from.
  const limits = await failureLimits(deps, 'login', input.email, meta.ip);
  await assertAllowed(deps.limiters, limits);
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !ok) {
    await recordFailure(deps.limiters, limits);
    throw AuthError.invalidCredentials();
  }
  await clearFailures(deps.limiters, [['loginPair', `${input.email}|${meta.ip}`]]);
  if (!user.emailVerified) throw AuthError.unverified(user.email);
  const token = await createSession(deps.db, user.id, meta, deps.now());
  return { user, token };
}

/**
 * The per-account limits of a request: per account and address always; per account alone only
 * for addresses the account never logged in from, so strangers cannot lock its owner out.
 */
async function failureLimits(
  deps: AccountDeps,
  kind: 'login' | 'forgot',
  email: string,
  ip: string,
): Promise<[LimitName, string][]> {
  const limits: [LimitName, string][] = [[`${kind}Pair`, `${email}|${ip}`]];
  if (!(await loggedInFrom(deps.db, email, ip))) limits.push([`${kind}Account`, email]);
  return limits;
}

/**
 * Always the same answer, in the same time: the lookup, the token and the mail are a job, queued
 * for every address alike (a mail goes only to an existing account).
 */
export async function forgotPassword(deps: AccountDeps, email: string, meta: RequestMeta): Promise<void> {
  await consume(deps.limiters, [['forgotIp', meta.ip]]);
  await consume(deps.limiters, await failureLimits(deps, 'forgot', email, meta.ip));
  await deps.queueAccountMail({ kind: 'forgot', email, origin: meta.origin });
}

/** Single-use token; every other session ends (and every API key, when asked); the user is logged in (and verified: the mail proves it). */
export async function resetPassword(
  deps: AccountDeps,
  input: { token: string; password: string; revoke_api_keys?: boolean },
  meta: RequestMeta,
): Promise<SessionResult> {
  await consume(deps.limiters, [['verifyIp', meta.ip]]);
  if (isCommonPassword(input.password)) throw AuthError.commonPassword();
  const now = deps.now();
  const row = await findLiveToken(deps.db, input.token, 'reset', now);
  if (!row || !(await consumeToken(deps.db, row.id, now))) throw AuthError.invalidToken();
  const [user] = await deps.db
    .update(users)
    .set({
      passwordHash: await hashPassword(input.password),
      passwordChangedAt: now,
      emailVerified: true,
      updatedAt: now,
    })
    .where(eq(users.id, row.userId))
    .returning();
  await revokeOtherSessions(deps.db, user!.id, null, now);
  if (input.revoke_api_keys) await revokeAllApiKeys(deps.db, user!.id);
  const token = await createSession(deps.db, user!.id, meta, now);
  return { user: user!, token };
}
