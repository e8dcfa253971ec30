import type { Context } from 'hono';
import { UUID_RE } from '../../common/validators';
import type { User } from '../db/schema';
import { authenticate, type RequestAuth } from '../modules/api-keys/authenticate';
import { requestCredential } from './cookies';
import { ErrorCode } from '../../common/error-codes';
import { ApiError } from '../modules/errors';

/**
 * The signed-in user of an API call (cookie or bearer session token, or an API key where keys
 * may call), or 401. A key's call counts against its minute's allowance (403 / 429 otherwise).
 */
export async function requireUser(c: Context): Promise<User> {
  return (await requireAuth(c)).user;
}

/** The caller's credentials (requireUser's), with the API key when one was used. */
export async function requireAuth(c: Context): Promise<RequestAuth> {
  const deps = c.get('deps');
  let auth;
  try {
    auth = await authenticate(
      { db: deps.db, keyLimiter: deps.services.apiKeys.keyLimiter },
      requestCredential(c),
      { method: c.req.method, path: c.req.path },
    );
  } catch (err) {
    const retry =
      err instanceof ApiError ? (err.data as { retry_after?: number } | null)?.retry_after : undefined;
    if (retry) c.header('Retry-After', String(retry));
    throw err;
  }
  if (!auth) throw new ApiError(ErrorCode.UNAUTHORIZED, 'errors.api.unauthorized');
  c.set('callerLanguage', auth.user.language);
  if (auth.rate) {
    c.header('X-RateLimit-Limit', String(auth.rate.limit));
    c.header('X-RateLimit-Remaining', String(auth.rate.remaining));
  }
  return auth;
}

/** A UUID path parameter; anything else is the resource's 404 before any lookup. */
export function uuidParam(c: Context, name: string, notFound: () => ApiError): string {
  const value = c.req.param(name) ?? '';
  if (!UUID_RE.test(value)) throw notFound();
  return value;
}
