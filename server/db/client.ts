import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { PROJECT_ROOT } from '../paths';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** The handle inside db.transaction(); module functions that may run in one take DbOrTx. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
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

/**
 * PostgreSQL through node-postgres when a URL is given, else embedded PGlite in `pgliteDir`
 * (or in memory with 'memory://'). Migrations are applied before the handle is returned.
 */
export async function openDatabase(opts: {
  url?: string;
  pgliteDir?: string;
  pgliteOptions?: PgliteTuning | null;
}): Promise<Database> {
  if (opts.url) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: opts.url, max: 10 });
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dir = opts.pgliteDir ?? 'memory://';
  const tuning =
    opts.pgliteOptions === undefined
      ? { postgresqlconf: PGLITE_SMALL_CONF, initDbStartParams: PGLITE_SMALL_INITDB }
      : (opts.pgliteOptions ?? {});
  if (!dir.startsWith('memory://')) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(path.join(dir, 'PG_VERSION'))) await initInChild(dir, tuning);
  }
  const client = new PGlite(dir, tuning);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}

/**
 * The first start (initdb and the migrations) runs in a short-lived child process: initdb peaks
 * near 700 MB and a process that ran it keeps ~450 MB even after garbage collection, where one that
 * opens the initialised folder holds ~180 MB (bench/pglite.mjs, decision 0015).
 */
async function initInChild(dir: string, tuning: PgliteTuning): Promise<void> {
  const code = `const { PGlite } = await import('@electric-sql/pglite');
const { drizzle } = await import('drizzle-orm/pglite');
const { migrate } = await import('drizzle-orm/pglite/migrator');
const [dir, tuning, migrationsFolder] = process.argv.slice(1);
const pg = new PGlite(dir, JSON.parse(tuning));
await migrate(drizzle(pg), { migrationsFolder });
await pg.close();`;
  const args = ['--input-type=module', '-e', code, dir, JSON.stringify(tuning), MIGRATIONS_DIR];
  const child = spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (exitCode !== 0) throw new Error(`Could not create the embedded database in ${dir}: ${stderr.trim()}`);
}
