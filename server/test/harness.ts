import { createApp } from '../app';
import type { AppDeps } from '../http/app-env';
import { openDatabase, type Database } from '../db/client';
import { loadEnv } from '../env';
import { createLogger, type Logger } from '../logger';
import { buildServiceDeps } from '../deps';
import { users, workspaces } from '../db/schema';
import type { ServiceOverrides } from '../deps';

/** An API answer's envelope, as tests read it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ApiJson = { code: number; message: string; message_key?: string; data: any };

/** A real app on an in-memory PGlite (or TEST_DATABASE_URL), for app.request() tests. */
export async function testApp(
  overrides: Partial<AppDeps> = {},
  env: Record<string, string> = {},
  service: ServiceOverrides & { worker?: boolean; pgliteDir?: string; logger?: Logger } = {},
) {
  const { pgliteDir, worker, logger: givenLogger, ...serviceOverrides } = service;
  const database: Database = await openDatabase(
    pgliteDir ? { pgliteDir } : { url: process.env.TEST_DATABASE_URL },
  );
  // A shared PostgreSQL test database starts each file empty (PGlite is fresh in memory anyway).
  if (database.kind === 'postgres') {
    await database.db.delete(users);
    // Team workspaces outlive their creators (a personal one goes with its account).
    await database.db.delete(workspaces);
  }
  const parsedEnv = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: 'tmp/test-data',
    // No test reaches the internet: a model download is only tried against a local server.
    WHISPER_MODEL_AUTO_DOWNLOAD: 'false',
    ...env,
  });
  const logger = givenLogger ?? createLogger('silent');
  const services = await buildServiceDeps(parsedEnv, database.db, logger, {
    exclusiveDb: database.kind === 'pglite',
    ...serviceOverrides,
  });
  await services.startBackground();
  if (worker) services.startWorker();
  const deps: AppDeps = {
    env: parsedEnv,
    logger,
    db: database.db,
    services,
    build: { id: 'test-build', timestamp: 1 },
    ...overrides,
  };
  const app = createApp(deps);
  /** A JSON call to `/self-api/v1<path>` with `headers` (a session cookie, say): the response and its envelope. */
  async function api(method: string, path: string, headers: Record<string, string>, body?: unknown) {
    const res = await app.request(`/self-api/v1${path}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { res, json: (await res.json()) as ApiJson };
  }
  return {
    app,
    api,
    deps,
    db: database.db,
    close: async () => {
      await services.close();
      await database.close();
    },
  };
}
