import type { MiddlewareHandler } from 'hono';
import { ErrorCode } from '../../common/error-codes';
import { ApiError } from '../modules/errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State-changing API calls are accepted from pages of this site (Origin, else Referer, must be
 * this origin or PUBLIC_URL's) or from API clients with a bearer token; a cross-site form or
 * fetch riding on the session cookie is refused.
 */
export function originCheck(publicUrl: string | undefined, corsOrigins: string[] = []): MiddlewareHandler {
  // PUBLIC_URL's pages, and those of CORS_ORIGINS (pages served elsewhere that use this API).
  const allowed = new Set<string>(corsOrigins);
  if (publicUrl) allowed.add(new URL(publicUrl).origin);
  return async (c, next) => {
    if (SAFE.has(c.req.method)) return next();
    if (c.req.header('authorization')?.toLowerCase().startsWith('bearer ')) return next();
    const self = new URL(c.req.url).origin;
    const origin = c.req.header('origin') ?? refererOrigin(c.req.header('referer'));
    if (origin && (origin === self || allowed.has(origin))) return next();
    throw new ApiError(ErrorCode.FORBIDDEN, 'errors.api.badOrigin');
  };
}

function refererOrigin(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}
