import { users, type User } from '../../db/schema';
import {
  renderAccountExistsMail,
  renderChoosePasswordMail,
  renderResetMail,
  renderVerificationMail,
} from '../mail/templates';
import { localizePath, type Locale } from '../../../common/locales';
import { referralFor } from '../affiliate/attribution';
import type { AccountDeps } from './deps';
import { findUserByEmail, langOf } from './accounts';
import { hasResetToken, issueEmailToken, revokeVerifyCodes } from './email-tokens';

// The account-mail job: the part of sign-up, re-send and forgot-password that depends on whether
// the address has an account (rows, tokens, which mail). It runs off the request path, so those
// answers do the same work, and take the same time, for every address.

export interface SignupWork {
  email: string;
  name: string | null;
  /** argon2 hash for a new account; null when the address had an account already. */
  passwordHash: string | null;
  /** A pending account's own password was given again. */
  samePassword: boolean;
  refCode: string | null;
  lang: Locale;
  origin: string;
}

export type AccountMailJob =
  | ({ kind: 'signup' } & SignupWork)
  | { kind: 'resend'; email: string; origin: string }
  | { kind: 'forgot'; email: string; origin: string };

type Deps = Pick<AccountDeps, 'db' | 'sendMail' | 'appName' | 'now'>;
type Origin = { origin: string };

export async function runAccountMail(deps: Deps, job: AccountMailJob): Promise<void> {
  if (job.kind === 'signup') return signupMail(deps, job);
  const user = await findUserByEmail(deps, job.email);
  if (!user) return;
  if (job.kind === 'forgot') return sendReset(deps, user, job);
  if (!user.emailVerified) return sendPendingMail(deps, user, job);
}

/** New: created with a code. Pending: a re-send, or a choose-password link. Verified: told. */
async function signupMail(deps: Deps, work: SignupWork): Promise<void> {
  let user = await findUserByEmail(deps, work.email);
  if (!user && work.passwordHash) {
    const [created] = await deps.db
      .insert(users)
      .values({
        email: work.email,
        name: work.name,
        passwordHash: work.passwordHash,
        language: work.lang,
        // Only a real affiliate's code, never the visitor's own: see modules/affiliate/attribution.
        ...((await referralFor(deps.db, work.refCode, work.email)) ?? {}),
        updatedAt: deps.now(),
      })
      .onConflictDoNothing({ target: users.email })
      .returning();
    // Two sign-ups of one new address at once: the first one creates it, the second re-sends.
    if (created) return sendVerification(deps, created, work);
    user = await findUserByEmail(deps, work.email);
  }
  if (!user) return;
  if (user.emailVerified) return sendAccountExists(deps, user, work);
  if (work.samePassword || work.passwordHash) return sendPendingMail(deps, user, work);
  await revokeVerifyCodes(deps.db, user.id, deps.now());
  return sendChoosePassword(deps, user, work);
}

/**
 * A pending account's next mail: its verification code, or — once someone offered another
 * password for it — only the link to choose the password, so no code can confirm a password
 * that the mailbox's owner may not know.
 */
async function sendPendingMail(deps: Deps, user: User, meta: Origin): Promise<void> {
  if (await hasResetToken(deps.db, user.id)) return sendChoosePassword(deps, user, meta);
  return sendVerification(deps, user, meta);
}

async function sendVerification(deps: Deps, user: User, meta: Origin): Promise<void> {
  const { token, code } = await issueEmailToken(deps.db, user.id, 'verify', deps.now());
  const lang = langOf(user.language);
  const link = `${meta.origin}${localizePath('/register/verification', lang)}?token=${token}&email=${encodeURIComponent(user.email)}`;
  const mail = renderVerificationMail({ lang, appName: deps.appName, code: code!, link });
  await deps.sendMail({ to: user.email, ...mail });
}

async function resetLink(deps: Deps, user: User, meta: Origin): Promise<string> {
  const { token } = await issueEmailToken(deps.db, user.id, 'reset', deps.now());
  return `${meta.origin}${localizePath('/resetPassword', langOf(user.language))}?token=${token}`;
}

async function sendReset(deps: Deps, user: User, meta: Origin): Promise<void> {
  const link = await resetLink(deps, user, meta);
  const lang = langOf(user.language);
  await deps.sendMail({ to: user.email, ...renderResetMail({ lang, appName: deps.appName, link }) });
}

async function sendChoosePassword(deps: Deps, user: User, meta: Origin): Promise<void> {
  const link = await resetLink(deps, user, meta);
  const lang = langOf(user.language);
  await deps.sendMail({ to: user.email, ...renderChoosePasswordMail({ lang, appName: deps.appName, link }) });
}

async function sendAccountExists(deps: Deps, user: User, meta: Origin): Promise<void> {
  const lang = langOf(user.language);
  await deps.sendMail({
    to: user.email,
    ...renderAccountExistsMail({
      lang,
      appName: deps.appName,
      loginLink: `${meta.origin}${localizePath('/login', lang)}`,
      resetLink: `${meta.origin}${localizePath('/forgetPassword', lang)}`,
    }),
  });
}
