import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logger';

export type AppVariables = {
  requestId: string;
  log: Logger;
  /** This response's Content-Security-Policy nonce (security-headers.ts). */
  cspNonce?: string;
};

/** Gives every request an id (kept from X-Request-Id when sane) and logs its outcome. */
export function requestLog(logger: Logger): MiddlewareHandler<{ Variables: AppVariables }> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    const log = logger.child({ reqId: requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    const started = performance.now();
    await next();
    c.header('X-Request-Id', requestId);
    const ms = Math.round(performance.now() - started);
    const path = c.req.path;
    if (!path.startsWith('/assets/')) {
      log.info({ method: c.req.method, path, status: c.res.status, ms }, 'request');
    }
  };
}
