import { createApp, type AppDeps } from '../app';
import { openDatabase, type Database } from '../db/client';
import { loadEnv } from '../env';
import { createLogger } from '../logger';

/** A real app on an in-memory PGlite (or TEST_DATABASE_URL), for app.request() tests. */
export async function testApp(overrides: Partial<AppDeps> = {}, env: Record<string, string> = {}) {
  const database: Database = await openDatabase({ url: process.env.TEST_DATABASE_URL });
  const deps: AppDeps = {
    env: loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }),
    logger: createLogger('silent'),
    db: database.db,
    build: { id: 'test-build', timestamp: 1 },
    ...overrides,
  };
  const app = createApp(deps);
  return { app, deps, db: database.db, close: () => database.close() };
}
