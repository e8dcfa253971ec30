import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Env } from './env';
import { bearerMatches } from './http/bearer';
import type { Logger } from './logger';
import type { ServiceDeps } from './deps';

/**
 * A worker's own small HTTP server (HEALTH_PORT): /healthz (alive), /readyz (the database, Redis,
 * the store and the model, which a worker needs to do anything) and /metrics (METRICS_TOKEN).
 */
export function startWorkerHealth(env: Env, logger: Logger, ops: ServiceDeps['ops']): http.Server | null {
  if (!env.HEALTH_PORT) return null;
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const url = req.url?.split('?')[0];
    void (async () => {
      if (req.method !== 'GET') return json(res, 405, { status: 'method not allowed' });
      if (url === '/healthz') return json(res, 200, { status: 'ok', role: 'worker' });
      if (url === '/readyz') {
        const r = await ops.readiness({ needsModel: true });
        return json(res, r.ready ? 200 : 503, {
          status: r.ready ? 'ready' : 'unavailable',
          checks: r.checks,
        });
      }
      if (url === '/metrics' && env.METRICS_TOKEN) {
        if (!bearerMatches(req.headers.authorization, env.METRICS_TOKEN))
          return json(res, 401, { status: 'unauthorized' });
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
        return res.end(await ops.metrics());
      }
      json(res, 404, { status: 'not found' });
    })().catch((err: unknown) => {
      logger.error({ err }, 'health endpoint failed');
      if (!res.headersSent) json(res, 500, { status: 'error' });
    });
  });
  server.listen(env.HEALTH_PORT, env.HOST, () => {
    logger.info({ port: (server.address() as AddressInfo).port }, 'worker health endpoints listening');
  });
  return server;
}
