// `npm run bench:pglite`: memory and speed of embedded PGlite under candidate settings, side by side
// (not a test; prints figures). Each setting runs in fresh processes: initdb into an empty folder
// (the server runs it in a child process of its own), then an open with the migrations and a small
// mixed workload. BENCH_PGLITE_ROWS (default 20000) rows of ~1 KB.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const ROWS = Number(process.env.BENCH_PGLITE_ROWS ?? 20_000);

/** Candidates: PostgreSQL settings (postgresql.conf lines) and initdb's arguments. */
const CANDIDATES = {
  'pglite defaults': {},
  'shared_buffers=16MB': { conf: ['shared_buffers=16MB'] },
  'small conf': { small: true },
  'small + small initdb (default)': { small: true, initdb: ['-c', 'shared_buffers=16MB', '-c', 'max_connections=10'] },
  'small, shared_buffers=8MB': { small: true, conf: ['shared_buffers=8MB'] },
  'small, max_connections=100': { small: true, conf: ['max_connections=100'] },
};

/** VmRSS (now) or VmHWM (peak) of this process, in MB. */
function status(field) {
  const text = readFileSync('/proc/self/status', 'utf8');
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return m ? Number(m[1]) / 1024 : NaN;
}

async function child(cfg) {
  const { openDatabase, PGLITE_SMALL_CONF } = await import('../build/node/bench-db.js');
  const conf = [...(cfg.small ? PGLITE_SMALL_CONF : []), ...(cfg.conf ?? [])];
  const options =
    cfg.small || cfg.conf || cfg.initdb ? { postgresqlconf: conf, initDbStartParams: cfg.initdb } : null;
  if (cfg.phase === 'initdb') {
    // What the server's first start runs in a child process (server/db/client.ts initInChild).
    const { PGlite } = await import('@electric-sql/pglite');
    const t0 = performance.now();
    const pg = new PGlite(cfg.dir, options ?? {});
    await pg.waitReady;
    const openMs = performance.now() - t0;
    process.stdout.write(JSON.stringify({ openMs, rssOpen: status('VmRSS'), peak: status('VmHWM') }));
    await pg.close();
    return;
  }
  const t0 = performance.now();
  const database = await openDatabase({ pgliteDir: cfg.dir, pgliteOptions: options });
  const openMs = performance.now() - t0;
  const out = { openMs, rssOpen: status('VmRSS') };
  if (cfg.phase === 'reopen') {
    const { sql } = await import('drizzle-orm');
    const db = database.db;
    const t1 = performance.now();
    await db.execute(sql`create table if not exists bench (id serial primary key, owner int, title text, body text)`);
    await db.execute(
      sql`insert into bench (owner, title, body) select g % 200, 'title ' || g, repeat(md5(g::text), 30) from generate_series(1, ${ROWS}) g`,
    );
    await db.execute(sql`create index if not exists bench_owner on bench (owner, id desc)`);
    for (let i = 0; i < 200; i++) {
      await db.execute(sql`select id, title from bench where owner = ${i % 200} order by id desc limit 20`);
    }
    await db.execute(sql`select owner, count(*), max(length(body)) from bench group by owner order by 2 desc`);
    await db.execute(sql`select id from bench order by body desc limit 10`);
    await db.execute(sql`select count(*) from bench where body ilike ${'%abc%'}`);
    out.workMs = performance.now() - t1;
    out.rssWork = status('VmRSS');
  }
  out.peak = status('VmHWM');
  await database.close();
  process.stdout.write(JSON.stringify(out));
}

if (process.argv[2] === 'child') {
  await child(JSON.parse(process.argv[3]));
} else {
  // A small bundle of the database client: the children load it without tsx.
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [{ in: 'server/db/client.ts', out: 'bench-db' }],
    outdir: 'build/node',
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'warning',
  });
  await esbuild.stop();
  const run = (cfg) => {
    const r = spawnSync(process.execPath, [import.meta.filename, 'child', JSON.stringify(cfg)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`child failed: ${r.status}`);
    return JSON.parse(r.stdout);
  };
  console.log(`PGlite settings, ${os.availableParallelism()} cores, ${ROWS} rows of ~1 KB (MB RSS; ms)`);
  console.log(
    'initdb: peak and RSS left in the process that ran it, ms; then a fresh process: opened (with the migrations), after the work, its peak, ms of work',
  );
  console.log(
    'setting'.padEnd(30) +
      'initdb peak'.padStart(12) +
      'left'.padStart(6) +
      'ms'.padStart(7) +
      'open'.padStart(6) +
      'after work'.padStart(11) +
      'peak'.padStart(7) +
      'work ms'.padStart(9),
  );
  for (const [name, cfg] of Object.entries(CANDIDATES)) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-pglite-'));
    try {
      const first = run({ ...cfg, dir, phase: 'initdb' });
      const again = run({ ...cfg, dir, phase: 'reopen' });
      console.log(
        name.padEnd(30) +
          first.peak.toFixed(0).padStart(12) +
          first.rssOpen.toFixed(0).padStart(6) +
          first.openMs.toFixed(0).padStart(7) +
          again.rssOpen.toFixed(0).padStart(6) +
          again.rssWork.toFixed(0).padStart(11) +
          again.peak.toFixed(0).padStart(7) +
          again.workMs.toFixed(0).padStart(9),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
