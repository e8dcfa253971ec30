import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createApp } from './app';
import type { BuildInfo, SsrHandler } from './http/app-env';
import { openDatabase } from './db/client';
import { loadEnv } from './env';
import { createLogger } from './logger';
import { CLIENT_DIR, productionSsr } from './ssr';
import { createShutdown } from './shutdown';
import { buildServiceDeps, webRunsWorker } from './deps';
import { seedToolPages } from './modules/seo/pages';

import type { Db } from './db/client';

/**
 * The web server: opens the database, builds the services, serves the app (through Vite with
 * `dev`), and shuts down cleanly on a signal. Answers what a caller in the same process may want
 * next to it (bench/lib/bare-main.ts starts its yardstick handlers on the same database handle).
 */
export async function serve({ dev }: { dev: boolean }): Promise<{ db: Db; host: string }> {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const database = await openDatabase({
    url: env.DATABASE_URL,
    pgliteDir: path.join(env.DATA_DIR, 'pglite'),
    // A restarted server waits for its predecessor (and that one's children) to let go.
    lockWaitMs: 30_000,
    onLockWait: (holder) =>
      logger.warn({ holder }, 'the embedded database is locked by another process; waiting for it'),
    // PostgreSQL starting at the same time as this process (a reboot, a compose file).
    connectWaitMs: 60_000,
    logger,
  });
  logger.info({ db: database.kind }, 'database ready');
  await seedToolPages(database.db, logger, new Date());

  let ssr: SsrHandler;
  let build: BuildInfo;
  let viteMiddlewares: http.RequestListener | undefined;
  let closeVite: (() => Promise<void>) | undefined;
  if (dev) {
    const { createServer } = await import('vite');
    const { createRequestHandler } = await import('react-router');
    const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
    const handler = createRequestHandler(
      () => vite.ssrLoadModule('virtual:react-router/server-build') as never,
      'development',
    );
    ssr = (request, context) => handler(request, context);
    build = { id: 'dev', timestamp: Date.now() };
    viteMiddlewares = vite.middlewares as unknown as http.RequestListener;
    closeVite = () => vite.close();
  } else {
    ({ ssr, build } = await productionSsr());
  }

  const services = await buildServiceDeps(env, database.db, logger);
  const app = createApp({
    env,
    logger,
    db: database.db,
    services,
    build,
    ssr,
    staticDir: dev ? undefined : CLIENT_DIR,
    viteDev: dev,
  });
  const listener = getRequestListener(app.fetch);
  const server = http.createServer((req, res) => {
    if (viteMiddlewares) {
      (viteMiddlewares as unknown as (q: typeof req, s: typeof res, next: () => void) => void)(
        req,
        res,
        () => {
          void listener(req, res);
        },
      );
    } else {
      void listener(req, res);
    }
  });
  server.keepAliveTimeout = 65_000;

  createShutdown({
    server,
    logger,
    timeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    steps: [...(closeVite ? [closeVite] : []), () => services.close(), () => database.close()],
  });

  await services.startBackground();
  if (webRunsWorker(env)) services.startWorker();

  server.listen(env.PORT, env.HOST, () => {
    const { port } = server.address() as AddressInfo;
    logger.info({ port, build: build.id, dev }, `listening on http://localhost:${port}`);
  });
  return { db: database.db, host: env.HOST };
}
