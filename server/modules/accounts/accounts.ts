import { eq } from 'drizzle-orm';
import { users, type User } from '../../db/schema';
import { renderResetMail, renderVerificationMail } from '../mail/templates';
import { consume } from '../auth/rate-limits';
import { hashPassword, isCommonPassword, verifyPassword } from '../auth/passwords';
import { createSession, revokeOtherSessions } from '../auth/sessions';
import { localizePath, isLocale, DEFAULT_LOCALE } from '../../../common/locales';
import { referralFor } from '../affiliate/attribution';
import type { AccountDeps, RequestMeta } from './deps';
import { AuthError } from './errors';
import { checkVerifyCode, findLiveToken, issueEmailToken, consumeToken } from './email-tokens';

export interface SessionResult {
  user: User;
  token: string;
}

const langOf = (l: string) => (isLocale(l) ? l : DEFAULT_LOCALE);

export async function findUserByEmail(deps: AccountDeps, email: string): Promise<User | null> {
  const [u] = await deps.db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return u ?? null;
}

async function sendVerification(deps: AccountDeps, user: User, meta: RequestMeta): Promise<void> {
  const { token, code } = await issueEmailToken(deps.db, user.id, 'verify', deps.now());
  const lang = langOf(user.language);
  const link = `${meta.origin}${localizePath('/register/verification', lang)}?token=${token}&email=${encodeURIComponent(user.email)}`;
  const mail = renderVerificationMail({ lang, appName: deps.appName, code: code!, link });
  await deps.sendMail({ to: user.email, ...mail });
}

/**
 * New account, unverified, with a verification mail (link + code) in the user's language.
 * An address that is still unverified can sign up again (the mail proves ownership);
 * a verified one is taken.
 */
export async function signup(
  deps: AccountDeps,
  input: { email: string; password: string; name?: string },
  meta: RequestMeta & { refCode: string | null },
): Promise<{ email: string }> {
  await consume(deps.limiters, [['signupIp', meta.ip]]);
  if (isCommonPassword(input.password)) throw AuthError.commonPassword();
  const existing = await findUserByEmail(deps, input.email);
  if (existing?.emailVerified) throw AuthError.emailTaken();
  // The mail limits apply before anything changes, so a refused attempt changes nothing.
  await consume(deps.limiters, [
    ['resendMinute', input.email],
    ['resendDay', input.email],
  ]);
  const passwordHash = await hashPassword(input.password);
  const values = {
    email: input.email,
    name: input.name || null,
    passwordHash,
    language: langOf(meta.lang),
    // Only a real affiliate's code, never the visitor's own: see modules/affiliate/attribution.
    ...((await referralFor(deps.db, meta.refCode, input.email)) ?? { referralCode: null, referredBy: null }),
    updatedAt: deps.now(),
  };
  const [user] = existing
    ? await deps.db.update(users).set(values).where(eq(users.id, existing.id)).returning()
    : await deps.db.insert(users).values(values).returning();
  await sendVerification(deps, user!, meta);
  return { email: user!.email };
}

/** Sends a fresh code; the same answer for unknown and already-verified addresses. */
export async function resendActivation(deps: AccountDeps, email: string, meta: RequestMeta): Promise<void> {
  await consume(deps.limiters, [
    ['resendMinute', email],
    ['resendDay', email],
  ]);
  const user = await findUserByEmail(deps, email);
  if (user && !user.emailVerified) await sendVerification(deps, user, meta);
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
  await consume(deps.limiters, [
    ['loginIp', meta.ip],
    ['loginAccount', input.email],
  ]);
  const user = await findUserByEmail(deps, input.email);
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !ok) throw AuthError.invalidCredentials();
  if (!user.emailVerified) throw AuthError.unverified(user.email);
  const token = await createSession(deps.db, user.id, meta, deps.now());
  return { user, token };
}

/** Always the same answer; a mail only when the account exists. */
export async function forgotPassword(deps: AccountDeps, email: string, meta: RequestMeta): Promise<void> {
  await consume(deps.limiters, [
    ['forgotIp', meta.ip],
    ['forgotAccount', email],
  ]);
  const user = await findUserByEmail(deps, email);
  if (!user) return;
  const { token } = await issueEmailToken(deps.db, user.id, 'reset', deps.now());
  const lang = langOf(user.language);
  const link = `${meta.origin}${localizePath('/resetPassword', lang)}?token=${token}`;
  await deps.sendMail({ to: user.email, ...renderResetMail({ lang, appName: deps.appName, link }) });
}

/** Single-use token; every other session ends; the user is logged in (and verified: the mail proves it). */
export async function resetPassword(
  deps: AccountDeps,
  input: { token: string; password: string },
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
  const token = await createSession(deps.db, user!.id, meta, now);
  return { user: user!, token };
}
