import type { Context } from 'hono';
import { readCookie, SESSION_COOKIE } from '../../common/cookies';
import type { Credential } from '../modules/api-keys/authenticate';

export type { Credential };

/** The Bearer header's token, else the httpOnly session cookie's, from raw headers. */
export function credentialOf(
  authorization: string | null | undefined,
  cookieHeader: string | null | undefined,
): Credential | null {
  if (authorization?.toLowerCase().startsWith('bearer ')) {
    const token = authorization.slice(7).trim();
    return token ? { token, from: 'bearer' } : null;
  }
  const token = readCookie(cookieHeader ?? '', SESSION_COOKIE);
  return token ? { token, from: 'cookie' } : null;
}

export function requestCredential(c: Context): Credential | null {
  return credentialOf(c.req.header('authorization'), c.req.header('cookie'));
}

/** The session token from the httpOnly cookie, or a Bearer header for API clients. */
export function sessionToken(c: Context): string | null {
  return requestCredential(c)?.token ?? null;
}
