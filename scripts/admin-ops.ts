// The operator's commands about the deployment itself (scripts/admin.ts dispatches here):
// `check [--fix]` compares the database with the media store and the queue; `backup <file>` and
// `restore <file>` copy the embedded database and the media into one tar and back.
import { createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import { DatabaseBusyError, openDatabase, restorePgliteDir, type Database } from '../server/db/client';
import type { Env } from '../server/env';
import { transcripts } from '../server/db/schema';
import { createLogger } from '../server/logger';
import { createDbQueue } from '../server/modules/jobs/db-queue';
import { createLocalEvents } from '../server/modules/jobs/events';
import type { JobQueue } from '../server/modules/jobs/queue';
import { checkConsistency, findingsTable, fixFindings } from '../server/modules/ops/consistency';
import { createTarWriter, readTar } from '../server/modules/ops/tar';
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

const BACKUP_FORMAT = 'clipscribe-backup';
const PGLITE_ENTRY = 'pglite.tar';
const MANIFEST_ENTRY = 'clipscribe-backup.json';

interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  createdAt: string;
  /** The newest migration the database had: a newer server migrates it further at start. */
  migration: string | null;
  transcripts: number;
  media: { key: string; size: number }[];
}

const EXTERNAL_HELP =
  'With DATABASE_URL (PostgreSQL) back up with pg_dump and restore with pg_restore; media in S3 with ' +
  'bucket versioning or `aws s3 sync` (README, "Backups").';

/**
 * `admin backup <file>`: the embedded database and every stored media file in one tar. It takes
 * the database's lock like a server does, so it never reads a folder a running server writes:
 * with the server running it refuses and says so (decision 0034).
 */
export async function runBackup(env: Env, file: string): Promise<number> {
  if (env.DATABASE_URL) {
    console.error(`admin backup covers the embedded database only. ${EXTERNAL_HELP}`);
    return 1;
  }
  if (existsSync(file)) {
    console.error(`${file} exists already: choose a new file name.`);
    return 1;
  }
  let database: Database;
  try {
    database = await openDatabase({ pgliteDir: path.join(env.DATA_DIR, 'pglite'), lockWaitMs: 0 });
  } catch (err) {
    if (!(err instanceof DatabaseBusyError)) throw err;
    console.error(`${err.message}\nStop the server for the backup (it takes seconds), then start it again.`);
    return 1;
  }
  const scratch = createScratch();
  const partial = `${file}.partial-${process.pid}`;
  try {
    const storage = await createStorageFromEnv(env, () => scratch.dir);
    const media: Manifest['media'] = [];
    for await (const item of storage.list('media/')) media.push({ key: item.key, size: item.size });
    const [count] = await database.db.select({ n: sql<number>`count(*)::int` }).from(transcripts);
    const migrations = await database.db.execute(
      sql`select hash from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    const [last] = (migrations as unknown as { rows: { hash: string }[] }).rows;
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      migration: last?.hash ?? null,
      transcripts: count?.n ?? 0,
      media,
    };
    const dump = Buffer.from(await (await database.dumpDataDir!()).arrayBuffer());
    const tar = createTarWriter(partial);
    await tar.add(MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 2)));
    await tar.add(PGLITE_ENTRY, dump);
    for (const item of media)
      await storage.withLocalFile(item.key, (local) => tar.add(item.key, { path: local, size: item.size }));
    await tar.finish();
    renameSync(partial, file);
    const mb = (statSync(file).size / 1e6).toFixed(1);
    console.log(
      `Backed up ${manifest.transcripts} transcripts and ${media.length} media files to ${file} (${mb} MB).`,
    );
    return 0;
  } finally {
    rmSync(partial, { force: true });
    scratch.close();
    await database.close();
  }
}

/** What a fresh DATA_DIR may already hold: models fetched ahead of the restore. */
const ALLOWED_IN_FRESH_DIR = new Set(['models']);

/**
 * `admin restore <file>`: a backup into a fresh DATA_DIR (refuses one that holds anything but
 * models). Media first, the database last and renamed into place, so an interrupted restore never
 * leaves a database that names files it lacks.
 */
export async function runRestore(env: Env, file: string): Promise<number> {
  if (env.DATABASE_URL) {
    console.error(`admin restore covers the embedded database only. ${EXTERNAL_HELP}`);
    return 1;
  }
  if (!existsSync(file)) {
    console.error(`No backup at ${file}.`);
    return 1;
  }
  const present = existsSync(env.DATA_DIR)
    ? readdirSync(env.DATA_DIR).filter((name) => !ALLOWED_IN_FRESH_DIR.has(name))
    : [];
  if (present.length > 0) {
    console.error(
      `DATA_DIR ${env.DATA_DIR} is not empty (${present.slice(0, 5).join(', ')}): restore only into a fresh one.`,
    );
    return 1;
  }
  const scratch = createScratch();
  const storage = await createStorageFromEnv(env, () => scratch.dir);
  const staging = path.join(env.DATA_DIR, `.restore-${process.pid}`);
  try {
    for await (const item of storage.list('media/')) {
      console.error(`The media store already holds ${item.key}: restore only into an empty one.`);
      return 1;
    }
    mkdirSync(staging, { recursive: true });
    let manifest: Manifest | null = null;
    let dump: Buffer | null = null;
    let restored = 0;
    await readTar(file, async (entry, body) => {
      if (!manifest) {
        if (entry.name !== MANIFEST_ENTRY) throw new Error(`${file} is not a ClipScribe backup.`);
        manifest = JSON.parse((await buffer(body)).toString('utf8')) as Manifest;
        if (manifest.format !== BACKUP_FORMAT || manifest.version !== 1)
          throw new Error(`${file} is not a ClipScribe backup this version can read.`);
      } else if (entry.name === PGLITE_ENTRY) {
        dump = await buffer(body);
      } else if (/^media\/[^/.][^\0]*$/.test(entry.name) && !entry.name.split('/').includes('..')) {
        const tmp = path.join(staging, String(restored));
        await pipeline(body, createWriteStream(tmp));
        await storage.adoptFile(tmp, entry.name);
        restored++;
      } else {
        throw new Error(`Unexpected entry in the backup: ${entry.name}`);
      }
    });
    const m = manifest as Manifest | null;
    if (!m || !dump) throw new Error(`${file} is incomplete: it has no database.`);
    if (restored !== m.media.length)
      throw new Error(`${file} is incomplete: ${restored} of ${m.media.length} media files.`);
    await restorePgliteDir(path.join(env.DATA_DIR, 'pglite'), new Blob([dump]));
    console.log(
      `Restored ${m.transcripts} transcripts and ${restored} media files (backup of ${m.createdAt}).`,
    );
    return 0;
  } catch (err) {
    console.error(
      `Restore failed: ${(err as Error).message}\nEmpty DATA_DIR (and the media store) before trying again.`,
    );
    return 1;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    scratch.close();
  }
}

async function buffer(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
