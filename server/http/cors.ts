import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { EXPORT_SKIPPED_HEADER } from '../../common/exports';

/**
 * Credentialed CORS for the API, only for the configured CORS_ORIGINS (pages on another
 * origin whose API_BASE_URL points here; docs/decisions/0021-cross-origin-api.md). Any other origin gets no
 * Access-Control-Allow-Origin, so its scripts cannot read answers, and the origin check refuses
 * its writes. The session cookie stays httpOnly; the browser sends it because the client
 * fetches with credentials: 'include'.
 */
export function apiCors(origins: string[]): MiddlewareHandler {
  const allowed = new Set(origins);
  return cors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    credentials: true,
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Content-Type', 'Accept', 'Authorization', 'X-Request-Id'],
    exposeHeaders: ['Content-Disposition', 'X-Request-Id', EXPORT_SKIPPED_HEADER],
    maxAge: 600,
  });
}
