import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import {
  buildAuthUrl,
  exchangeCode,
  GoogleAuthError,
  newPkce,
  verifyIdToken,
  type GoogleIdentity,
} from '../auth/google';
import { createSession } from '../auth/sessions';
import { newToken } from '../auth/tokens';
import { isLocale, DEFAULT_LOCALE } from '../../../common/locales';
import { referralFor } from '../affiliate/attribution';
import type { AccountDeps, RequestMeta } from './deps';
import { AuthError } from './errors';
import type { SessionResult } from './accounts';
import { findUserByEmail } from './accounts';

/** Redirect flow: the URL to send the user to, plus the state and PKCE verifier to keep (in a cookie). */
export function googleAuthUrl(deps: AccountDeps, redirectUri: string) {
  if (!deps.google) throw AuthError.googleNotConfigured();
  const state = newToken();
  const pkce = newPkce();
  const url = buildAuthUrl(deps.google, { redirectUri, state, codeChallenge: pkce.challenge });
  return { url, state, verifier: pkce.verifier };
}

export type GoogleLoginInput =
  { credential: string } | { code: string; redirectUri: string; codeVerifier?: string };

/**
 * Signs in with Google: an ID token (One Tap / button credential) is verified against Google's
 * keys; a code is exchanged first. Links to the account with the same address when Google has
 * verified it (a pending sign-up loses the password nobody proved), else creates a verified account.
 */
export async function googleLogin(
  deps: AccountDeps,
  input: GoogleLoginInput,
  meta: RequestMeta & { refCode: string | null },
): Promise<SessionResult> {
  if (!deps.google) throw AuthError.googleNotConfigured();
  let identity: GoogleIdentity;
  try {
    identity =
      'credential' in input
        ? await verifyIdToken(deps.google, input.credential, { now: deps.now() })
        : await exchangeCode(deps.google, input);
  } catch (err) {
    if (err instanceof GoogleAuthError) throw AuthError.googleFailed();
    throw err;
  }
  if (!identity.emailVerified) throw AuthError.googleFailed();
  const now = deps.now();

  const [bySub] = await deps.db.select().from(users).where(eq(users.googleSub, identity.sub)).limit(1);
  let user = bySub ?? (await findUserByEmail(deps, identity.email));
  if (user) {
    // A sign-up still pending confirmation: Google proves the mailbox, not what someone typed for
    // it, so its password, name and referral go (they could be a stranger's: pre-hijacking).
    const unproven = user.emailVerified
      ? { name: user.name ?? identity.name }
      : {
          passwordHash: null,
          name: identity.name,
          ...((await referralFor(deps.db, meta.refCode, identity.email)) ?? {
            referralCode: null,
            referredBy: null,
          }),
        };
    const [linked] = await deps.db
      .update(users)
      .set({
        googleSub: identity.sub,
        emailVerified: true,
        avatar: user.avatar ?? identity.picture,
        ...unproven,
        updatedAt: now,
      })
      .where(eq(users.id, user.id))
      .returning();
    user = linked!;
  } else {
    const [created] = await deps.db
      .insert(users)
      .values({
        email: identity.email,
        name: identity.name,
        avatar: identity.picture,
        googleSub: identity.sub,
        emailVerified: true,
        language: isLocale(meta.lang) ? meta.lang : DEFAULT_LOCALE,
        ...(await referralFor(deps.db, meta.refCode, identity.email)),
      })
      .returning();
    user = created!;
  }
  const token = await createSession(deps.db, user.id, meta, now);
  return { user, token };
}
