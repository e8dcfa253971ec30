import type { Context } from 'hono';
import { UUID_RE } from '../../common/validators';
import type { User } from '../db/schema';
import { userForToken } from '../modules/auth/session-user';
import { sessionToken } from './cookies';
import { ErrorCode } from '../../common/error-codes';
import { ApiError } from './envelope';

/** The signed-in user of an API call (cookie or bearer token), or 401. */
export async function requireUser(c: Context): Promise<User> {
  const user = await userForToken(c.get('deps').db, sessionToken(c));
  if (!user) throw new ApiError(ErrorCode.UNAUTHORIZED, 'errors.api.unauthorized');
  return user;
}

/** A UUID path parameter; anything else is the resource's 404 before any lookup. */
export function uuidParam(c: Context, name: string, notFound: () => ApiError): string {
  const value = c.req.param(name) ?? '';
  if (!UUID_RE.test(value)) throw notFound();
  return value;
}
