// The operator's commands about the deployment itself (scripts/admin.ts dispatches here):
// `check [--fix]` compares the database with the media store and the queue.
import path from 'node:path';
import type { Database } from '../server/db/client';
import type { Env } from '../server/env';
import { createLogger } from '../server/logger';
import { createDbQueue } from '../server/modules/jobs/db-queue';
import { createLocalEvents } from '../server/modules/jobs/events';
import type { JobQueue } from '../server/modules/jobs/queue';
import { checkConsistency, findingsTable, fixFindings } from '../server/modules/ops/consistency';
import { createStorageFromEnv } from '../server/modules/storage/from-env';
import { createScratch } from '../server/process/scratch';

/** Prints the findings; 0 when there are none left (after --fix), 1 otherwise. */
export async function runCheck(env: Env, database: Database, fix: boolean): Promise<number> {
  const logger = createLogger('warn');
  const scratch = createScratch();
  const events = createLocalEvents();
  // A producer only: this command adds jobs (--fix) and reads which wait, it never runs one.
  const queue: JobQueue = env.REDIS_URL
    ? (await import('../server/modules/jobs/bull-queue')).createBullQueue({
        url: env.REDIS_URL,
        events,
        logger,
        prefix: env.QUEUE_PREFIX,
      })
    : createDbQueue({ db: database.db, events, logger, exclusive: false });
  try {
    const deps = {
      db: database.db,
      storage: await createStorageFromEnv(env, () => scratch.dir),
      queue,
      uploadsDir: path.join(env.DATA_DIR, 'uploads'),
      logger,
      now: () => new Date(),
    };
    const findings = await checkConsistency(deps);
    let fixed: typeof findings = [];
    if (fix && findings.some((f) => f.fix)) {
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const quarantineDir = path.join(env.DATA_DIR, 'quarantine', stamp);
      fixed = await fixFindings({ ...deps, quarantineDir }, findings);
      if (fixed.some((f) => f.fix === 'quarantine')) console.log(`Files moved to ${quarantineDir}`);
    }
    console.log(findingsTable(findings, fixed));
    const left = findings.length - fixed.length;
    if (left > 0 && !fix && findings.some((f) => f.fix))
      console.log('Run again with --fix to repair the ones marked quarantine, release or requeue.');
    return left > 0 ? 1 : 0;
  } finally {
    await queue.stop();
    scratch.close();
  }
}
