import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { withLogContext, type Logger } from '../logger';
import { observeRequest } from '../modules/ops/metrics';

export type AppVariables = {
  requestId: string;
  log: Logger;
  /** This response's Content-Security-Policy nonce (security-headers.ts). */
  cspNonce?: string;
  /** The signed-in caller's account language, once known: error answers fall back to it. */
  callerLanguage?: string;
};

/** Gives every request an id (kept from X-Request-Id when sane) and logs its outcome. */
export function requestLog(logger: Logger): MiddlewareHandler<{ Variables: AppVariables }> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    // The id reaches every line written while the request runs (and the jobs it queues) through
    // the log context, not a child logger, so a module's own logger carries it too.
    const log = logger;
    c.set('requestId', requestId);
    c.set('log', log);
    const started = performance.now();
    await withLogContext({ reqId: requestId }, () => next());
    c.header('X-Request-Id', requestId);
    const elapsed = performance.now() - started;
    const ms = Math.round(elapsed);
    const path = c.req.path;
    observeRequest(c.req.method, path, c.res.status, elapsed / 1000);
    if (!path.startsWith('/assets/')) {
      withLogContext({ reqId: requestId }, () =>
        log.info({ method: c.req.method, path, status: c.res.status, ms }, 'request'),
      );
    }
  };
}
