import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { PROJECT_ROOT } from '../paths';
import type { Logger } from '../logger';
import { outageOf } from '../outage';
import { LockBusyError, lockFile, type FileLock } from '../process/file-lock';
import { spawnTied } from '../process/tied-spawn';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** The handle inside db.transaction(); module functions that may run in one take DbOrTx. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite on disk: its data folder as a tar (a checkpoint first), for `admin backup`. */
  dumpDataDir?(): Promise<Blob>;
}

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'server', 'db', 'migrations');

/**
 * PostgreSQL settings of the embedded database, for a small server (one process, one user at a
 * time in PGlite's single-user backend). Chosen by measurement (bench/pglite.mjs, decision 0015):
 * PostgreSQL's defaults reserve 128 MB of shared buffers that a small deployment never fills.
 */
export const PGLITE_SMALL_CONF = [
  'shared_buffers=16MB',
  'max_connections=10',
  'work_mem=2MB',
  'maintenance_work_mem=16MB',
  'temp_buffers=2MB',
];
/** initdb (the first start) with the same small shared memory. */
export const PGLITE_SMALL_INITDB = ['-c', 'shared_buffers=16MB', '-c', 'max_connections=10'];

/** What PGlite is given besides its folder; null keeps PGlite's own defaults (benches). */
export interface PgliteTuning {
  postgresqlconf?: string[];
  /** Extra arguments of initdb (the first start). */
  initDbStartParams?: string[];
}

/** Another process (a server, an admin command) has the embedded database open. */
export class DatabaseBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: number | null,
  ) {
    super(
      `The embedded database in ${dir} is in use by ${holder ? `process ${holder}` : 'another process'} ` +
        '(a running ClipScribe server or admin command). Stop it first, or give this process its own DATA_DIR.',
    );
    this.name = 'DatabaseBusyError';
  }
}

/** The lock beside an embedded database's folder: whoever holds it may open the folder. */
export const pgliteLockFile = (dir: string) => `${path.resolve(dir)}.lock`;

/**
 * PostgreSQL through node-postgres when a URL is given, else embedded PGlite in `pgliteDir`
 * (or in memory with 'memory://'). Migrations are applied before the handle is returned.
 *
 * PGlite is one PostgreSQL backend writing its files directly: two processes on one folder corrupt
 * it. So the folder is locked for the life of the process that opens it (and of its set-up child),
 * waiting up to `lockWaitMs` for a previous holder to go; DatabaseBusyError after that.
 */
export async function openDatabase(opts: {
  url?: string;
  pgliteDir?: string;
  pgliteOptions?: PgliteTuning | null;
  lockWaitMs?: number;
  /** Told once when the folder is locked and this call starts waiting. */
  onLockWait?: (holder: number | null) => void;
  /** PostgreSQL: how long to keep trying while the server cannot be reached at start (default 0). */
  connectWaitMs?: number;
  /** PostgreSQL: where connection errors of idle clients go (a restart of the server). */
  logger?: Pick<Logger, 'warn'>;
}): Promise<Database> {
  if (opts.url) return openPostgres(opts.url, opts);
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dir = opts.pgliteDir ?? 'memory://';
  const tuning =
    opts.pgliteOptions === undefined
      ? { postgresqlconf: PGLITE_SMALL_CONF, initDbStartParams: PGLITE_SMALL_INITDB }
      : (opts.pgliteOptions ?? {});
  let lock: FileLock | null = null;
  if (!dir.startsWith('memory://')) {
    try {
      lock = await lockFile(pgliteLockFile(dir), { waitMs: opts.lockWaitMs, onWait: opts.onLockWait });
    } catch (err) {
      if (err instanceof LockBusyError) throw new DatabaseBusyError(dir, err.holder);
      throw err;
    }
    try {
      if (!existsSync(path.join(dir, 'PG_VERSION'))) await createDatabaseFolder(dir, tuning, lock);
    } catch (err) {
      lock.release();
      throw err;
    }
  }
  try {
    const client = new PGlite(dir, tuning);
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      dumpDataDir: async () => {
        await client.exec('CHECKPOINT');
        return client.dumpDataDir('none');
      },
      close: async () => {
        try {
          await client.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (err) {
    lock?.release();
    throw err;
  }
}

/** Any number shared by every process of a deployment: the key of the migration lock. */
const MIGRATION_LOCK_KEY = 7_346_312_001;

/**
 * node-postgres with what a restart of PostgreSQL needs: idle clients that lose their connection
 * are logged and replaced (an unhandled 'error' would end the process), a connection attempt gives
 * up after 10 s instead of holding a request forever, and migrations run under an advisory lock so
 * processes starting together against a fresh database do not create the same tables at once.
 */
async function openPostgres(
  url: string,
  opts: { connectWaitMs?: number; logger?: Pick<Logger, 'warn'> },
): Promise<Database> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
  });
  pool.on('error', (err) =>
    opts.logger?.warn({ err: err.message }, 'database connection lost; it is replaced'),
  );
  const deadline = Date.now() + (opts.connectWaitMs ?? 0);
  for (let attempt = 1; ; attempt++) {
    try {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        client.release();
      }
      break;
    } catch (err) {
      if (outageOf(err) !== 'unavailable' || Date.now() >= deadline) {
        await pool.end().catch(() => undefined);
        throw err;
      }
      opts.logger?.warn(
        { err: (err as Error).message, attempt },
        'PostgreSQL cannot be reached yet; trying again',
      );
      await new Promise((r) => setTimeout(r, Math.min(5_000, 500 * attempt)));
    }
  }
  const db = drizzle(pool, { schema });
  return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
}

/**
 * The first start: initdb and the migrations in a folder of their own beside `dir`, renamed into
 * place once complete. A first start that is interrupted (killed, out of memory, power cut) leaves
 * a half-made folder that is never opened as a database, and the next start begins again.
 */
async function createDatabaseFolder(dir: string, tuning: PgliteTuning, lock: FileLock): Promise<void> {
  const parent = path.dirname(path.resolve(dir));
  const base = path.basename(dir);
  mkdirSync(parent, { recursive: true });
  // Earlier interrupted attempts (the lock says no process is still making one).
  for (const name of readdirSync(parent)) {
    if (name.startsWith(`${base}.init-`)) rmSync(path.join(parent, name), { recursive: true, force: true });
  }
  if (existsSync(dir)) {
    // An empty folder made by hand, or one an older version began to fill: kept aside, never reused.
    if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
    else renameSync(dir, path.join(parent, `${base}.incomplete-${Date.now()}`));
  }
  const building = path.join(parent, `${base}.init-${process.pid}`);
  await initInChild(building, tuning, lock);
  renameSync(building, dir);
}

/**
 * `admin restore`: makes the embedded database folder `dir` from a PGlite data-folder dump, under
 * the folder's lock and beside it first (renamed into place when complete, as a first start).
 * Refuses a folder that already holds a database. Migrations newer than the backup run at the
 * next start.
 */
export async function restorePgliteDir(dir: string, dump: Blob): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  let lock: FileLock;
  try {
    lock = await lockFile(pgliteLockFile(dir), { waitMs: 0 });
  } catch (err) {
    if (err instanceof LockBusyError) throw new DatabaseBusyError(dir, err.holder);
    throw err;
  }
  try {
    if (existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`${dir} already holds a database`);
    const parent = path.dirname(path.resolve(dir));
    mkdirSync(parent, { recursive: true });
    const building = path.join(parent, `${path.basename(dir)}.init-${process.pid}`);
    rmSync(building, { recursive: true, force: true });
    const pg = new PGlite(building, { loadDataDir: dump, postgresqlconf: PGLITE_SMALL_CONF });
    await pg.waitReady;
    // Proves the copy opens and reads before it is put in place.
    await pg.query('select count(*) from transcripts');
    await pg.close();
    renameSync(building, dir);
  } finally {
    lock.release();
  }
}

/**
 * The first start (initdb and the migrations) runs in a short-lived child process: initdb peaks
 * near 700 MB and a process that ran it keeps ~450 MB even after garbage collection, where one that
 * opens the initialised folder holds ~180 MB (bench/pglite.mjs, decision 0015).
 */
async function initInChild(dir: string, tuning: PgliteTuning, lock: FileLock): Promise<void> {
  // The child holds the folder's lock with this process (fd 3), and ends itself if this process
  // dies where the kernel does not end it (server/process/lifeline.ts).
  const code = `const parent = process.ppid;
setInterval(() => { if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL'); }, 1000).unref();
const { PGlite } = await import('@electric-sql/pglite');
const { drizzle } = await import('drizzle-orm/pglite');
const { migrate } = await import('drizzle-orm/pglite/migrator');
const [dir, tuning, migrationsFolder] = process.argv.slice(1);
const pg = new PGlite(dir, JSON.parse(tuning));
await migrate(drizzle(pg), { migrationsFolder });
await pg.close();`;
  const args = ['--input-type=module', '-e', code, dir, JSON.stringify(tuning), MIGRATIONS_DIR];
  const child = spawnTied(process.execPath, args, {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'ignore', 'pipe', lock.fd],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (exitCode !== 0) throw new Error(`Could not create the embedded database in ${dir}: ${stderr.trim()}`);
}
