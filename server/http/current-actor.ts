import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { serialize } from 'hono/utils/cookie';
import { ErrorCode } from '../../common/error-codes';
import { WORKSPACE_COOKIE, WORKSPACE_COOKIE_MAX_AGE, WORKSPACE_HEADER } from '../../common/cookies';
import { keyNotAllowed } from '../modules/api-keys/access';
import { resolveActor, type Actor } from '../modules/workspaces/actor';
import { requireAuth } from './current-user';
import { ApiError } from '../modules/errors';
import { isSecureRequest } from './request-origin';

/**
 * The caller of a product API call and the workspace it acts in (decision 0027): an API key's
 * own workspace, else the X-Workspace header, else the workspace cookie, else the personal one.
 * 401 when the credentials (or the key's membership) are gone.
 */
export async function requireActor(c: Context): Promise<Actor> {
  const auth = await requireAuth(c);
  const actor = await resolveActor(c.get('deps').db, auth, {
    header: c.req.header(WORKSPACE_HEADER) ?? null,
    cookie: getCookie(c, WORKSPACE_COOKIE) ?? null,
  });
  if (!actor) throw new ApiError(ErrorCode.UNAUTHORIZED, 'errors.api.unauthorized');
  return actor;
}

/** A call only a signed-in person may make (workspace and member management): never a key. */
export async function requirePerson(c: Context): Promise<Actor> {
  const actor = await requireActor(c);
  if (actor.apiKeyId) throw keyNotAllowed();
  return actor;
}

function cookieOptions(c: Context) {
  const { env } = c.get('deps');
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: isSecureRequest(c, { trustProxy: env.TRUST_PROXY, publicUrl: env.PUBLIC_URL }),
    domain: env.COOKIE_DOMAIN,
    maxAge: WORKSPACE_COOKIE_MAX_AGE,
  } as const;
}

/** Remembers the workspace the pages work in. */
export function setWorkspaceCookie(c: Context, workspaceId: string) {
  setCookie(c, WORKSPACE_COOKIE, workspaceId, cookieOptions(c));
}

/** The same cookie as a Set-Cookie value, for a response built elsewhere (a page). */
export function workspaceCookie(c: Context, workspaceId: string): string {
  return serialize(WORKSPACE_COOKIE, workspaceId, cookieOptions(c));
}
