import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppEnv } from '../http/app-env';
import { requireUser } from '../http/current-user';
import { ok } from '../../common/envelope';
import { sessionToken } from '../http/cookies';
import { readBody } from '../http/validate';
import { requestMeta } from '../http/request-meta';
import { isSecureRequest } from '../http/request-origin';
import { revokeSession } from '../modules/auth/sessions';
import {
  completeSignup,
  forgotPassword,
  login,
  resendActivation,
  resetPassword,
  signup,
  type SessionResult,
} from '../modules/accounts/accounts';
import { deleteAccount, updateProfile } from '../modules/accounts/profile';
import { googleAuthUrl, googleLogin } from '../modules/accounts/google-login';
import { userPayload } from '../modules/accounts/payload';
import { AuthError } from '../modules/accounts/errors';
import { minutesUsed } from '../modules/transcription/admission';
import type { User } from '../db/schema';
import {
  completeSignupSchema,
  forgotSchema,
  loginSchema,
  newPasswordField,
  resetSchema,
  signupSchema,
  revokeApiKeysField,
} from '../../common/auth-schemas';
import { REF_COOKIE, SESSION_COOKIE, SESSION_MAX_AGE } from '../../common/cookies';
import { LOCALES } from '../../common/locales';
import { textField } from '../../common/text';

const honeypot = { website: z.string().optional() };
const GOOGLE_COOKIE = 'g_oauth';

const profileSchema = z
  .object({
    name: textField({ max: 80, maxMessage: 'validation.nameMax' }).nullable().optional(),
    language: z.enum(LOCALES).optional(),
    current_password: z.string().max(256).optional(),
    new_password: newPasswordField.optional(),
    revoke_api_keys: revokeApiKeysField,
    delete: z.literal(true).optional(),
    password: z.string().max(256).optional(),
    confirm_email: z.string().max(254).optional(),
  })
  .strict();
const googleSchema = z.union([
  z.object({ credential: z.string().min(20).max(5000) }),
  z.object({ code: z.string().min(4).max(2000), state: z.string().max(200).optional() }),
]);

/** /common-api/v1: sign-up, login, sessions, profile, password reset, Google sign-in. */
export function accountsApi() {
  const api = new Hono<AppEnv>();

  const deps = (c: Context<AppEnv>) => c.get('deps').services.accounts;
  const meta = (c: Context<AppEnv>) => {
    const { env } = c.get('deps');
    return requestMeta(c, { trustProxy: env.TRUST_PROXY, publicUrl: env.PUBLIC_URL });
  };
  const payload = async (c: Context<AppEnv>, user: User) => {
    const now = deps(c).now();
    return userPayload(user, { minutesUsed: await minutesUsed(c.get('deps').db, user, now) }, now);
  };
  const startSession = async (c: Context<AppEnv>, result: SessionResult) => {
    const { env } = c.get('deps');
    setCookie(c, SESSION_COOKIE, result.token, {
      httpOnly: true,
      secure: isSecureRequest(c, { trustProxy: env.TRUST_PROXY, publicUrl: env.PUBLIC_URL }),
      sameSite: 'Lax',
      path: '/',
      domain: env.COOKIE_DOMAIN,
      maxAge: SESSION_MAX_AGE,
    });
    return c.json(ok(await payload(c, result.user)));
  };

  api.post('/signup', async (c) => {
    const body = await readBody(c, signupSchema.extend(honeypot));
    // Bots that fill the hidden field get the normal answer and nothing happens.
    if (body.website) return c.json(ok({ email: body.email }));
    const refCode = getCookie(c, REF_COOKIE) ?? null;
    return c.json(ok(await signup(deps(c), body, { ...meta(c), refCode })));
  });

  api.post('/resend-activate-email', async (c) => {
    const body = await readBody(c, forgotSchema);
    await resendActivation(deps(c), body.email, meta(c));
    return c.json(ok(null));
  });

  api.post('/complete-signup', async (c) => {
    const body = await readBody(c, completeSignupSchema);
    return startSession(c, await completeSignup(deps(c), body, meta(c)));
  });

  api.post('/login', async (c) => {
    const body = await readBody(c, loginSchema.extend(honeypot));
    if (body.website) throw AuthError.invalidCredentials();
    return startSession(c, await login(deps(c), body, meta(c)));
  });

  api.get('/user', async (c) => {
    const user = await requireUser(c);
    return c.json(ok(await payload(c, user)));
  });

  api.put('/user', async (c) => {
    const user = await requireUser(c);
    const body = await readBody(c, profileSchema);
    if (body.delete) {
      await deleteAccount(deps(c), user, { password: body.password, email: body.confirm_email });
      deleteCookie(c, SESSION_COOKIE, { path: '/', domain: c.get('deps').env.COOKIE_DOMAIN });
      return c.json(ok(null));
    }
    const updated = await updateProfile(deps(c), user, sessionToken(c), body);
    return c.json(ok(await payload(c, updated)));
  });

  api.delete('/logout', async (c) => {
    const token = sessionToken(c);
    if (token) await revokeSession(c.get('deps').db, token, deps(c).now());
    deleteCookie(c, SESSION_COOKIE, { path: '/', domain: c.get('deps').env.COOKIE_DOMAIN });
    return c.json(ok(null));
  });

  api.post('/forgot-password', async (c) => {
    const body = await readBody(c, forgotSchema.extend(honeypot));
    if (!body.website) await forgotPassword(deps(c), body.email, meta(c));
    return c.json(ok(null));
  });

  api.post('/reset-password', async (c) => {
    const body = await readBody(c, resetSchema);
    return startSession(c, await resetPassword(deps(c), body, meta(c)));
  });

  api.post('/auth-google/auth-url', (c) => {
    const m = meta(c);
    const { url, state, verifier } = googleAuthUrl(deps(c), `${m.origin}/login`);
    const { env } = c.get('deps');
    setCookie(c, GOOGLE_COOKIE, `${state}.${verifier}`, {
      httpOnly: true,
      secure: isSecureRequest(c, { trustProxy: env.TRUST_PROXY, publicUrl: env.PUBLIC_URL }),
      sameSite: 'Lax',
      path: '/common-api/v1/auth-google',
      maxAge: 600,
    });
    return c.json(ok({ url }));
  });

  api.post('/auth-google/login', async (c) => {
    const body = await readBody(c, googleSchema);
    const m = meta(c);
    const refCode = getCookie(c, REF_COOKIE) ?? null;
    let input: Parameters<typeof googleLogin>[1];
    if ('credential' in body) input = { credential: body.credential };
    else if (body.state) {
      // Redirect flow: the state must be the one we issued, and its PKCE verifier goes along.
      const [state, verifier] = (getCookie(c, GOOGLE_COOKIE) ?? '').split('.');
      if (!state || state !== body.state || !verifier) throw AuthError.googleFailed();
      deleteCookie(c, GOOGLE_COOKIE, { path: '/common-api/v1/auth-google' });
      input = { code: body.code, redirectUri: `${m.origin}/login`, codeVerifier: verifier };
    } else {
      // Google Identity Services popup code mode.
      input = { code: body.code, redirectUri: 'postmessage' };
    }
    return startSession(c, await googleLogin(deps(c), input, { ...m, refCode }));
  });

  return api;
}
