import { openDatabase } from './db/client';
import { loadEnv } from './env';
import { createLogger } from './logger';
import { buildServiceDeps } from './deps';
import { startWorkerHealth } from './worker-health';

/**
 * `npm run worker`: a transcription worker process for the distributed mode. It shares
 * PostgreSQL, Redis and the media storage with the web processes, and can run on any machine.
 */
async function main() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  if (!env.REDIS_URL || !env.DATABASE_URL) {
    throw new Error(
      'npm run worker needs REDIS_URL and DATABASE_URL (the embedded mode runs jobs in the web process).',
    );
  }
  const database = await openDatabase({ url: env.DATABASE_URL, connectWaitMs: 60_000, logger });
  const services = await buildServiceDeps(env, database.db, logger);
  services.startWorker();
  const health = startWorkerHealth(env, logger, services.ops);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker stopping');
    const timer = setTimeout(() => process.exit(1), env.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    health?.close();
    await services.close();
    await database.close();
    logger.info('worker stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
