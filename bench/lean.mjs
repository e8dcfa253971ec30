// `npm run bench:lean`: the web process's weight on the embedded default (not a test; prints
// figures). For each variant: a first start into an empty data folder, the time until the first
// answered request and the idle RSS; 1,000 mixed requests (pages, API, files) and the RSS after
// them; then a restart on the same folder, its time to the first answer and idle RSS.
//   BENCH_BASELINE=<folder>   also runs an older checkout side by side (`git worktree add … <commit>`
//                             with node_modules and build/ linked), started as it was (tsx).
//   BENCH_REQUESTS (default 1000), BENCH_CONCURRENCY (default 4).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildProduction, COMPILED, memoryMb, sleep, startServer, UA } from './lib/server.mjs';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const MIX = [
  '/healthz',
  '/',
  '/de',
  '/pricing',
  '/login',
  '/fr/register',
  '/tools',
  '/common-api/v1/user',
  '/sitemap.xml',
  '/robots.txt',
  '/no/such/page',
  '/terms',
];

buildProduction();

// Start-up options tried against idle RSS (decision 0015); BENCH_LEAN_VARIANTS=all runs them all
// side by side, or a comma-separated list of their names (a name may repeat).
const OPTIONS = {
  'npm start (semi-space 2)': { args: ['--max-semi-space-size=2', ...COMPILED] },
  'compiled, no options': { args: COMPILED },
  'MALLOC_ARENA_MAX=2': { args: COMPILED, env: { MALLOC_ARENA_MAX: '2' } },
  '--optimize-for-size': { args: ['--optimize-for-size', ...COMPILED] },
  // (--lite-mode is not among them: it turns WebAssembly off, and PGlite is WebAssembly.)
  'arena 2 + semi-space 2': {
    args: ['--max-semi-space-size=2', ...COMPILED],
    env: { MALLOC_ARENA_MAX: '2' },
  },
  'size + semi-space 2': { args: ['--optimize-for-size', '--max-semi-space-size=2', ...COMPILED] },
  'size + semi-space 1 + arena 2': {
    args: ['--optimize-for-size', '--max-semi-space-size=1', ...COMPILED],
    env: { MALLOC_ARENA_MAX: '2' },
  },
};
const chosen =
  process.env.BENCH_LEAN_VARIANTS === 'all'
    ? Object.keys(OPTIONS)
    : (process.env.BENCH_LEAN_VARIANTS?.split(',') ?? ['npm start (semi-space 2)']);
const variants = chosen.map((name) => {
  if (!OPTIONS[name]) throw new Error(`unknown variant ${name}: ${Object.keys(OPTIONS).join(', ')}`);
  return { name, cwd: process.cwd(), ...OPTIONS[name] };
});
if (process.env.BENCH_BASELINE)
  variants.unshift({
    name: `baseline (${path.basename(process.env.BENCH_BASELINE)}, tsx)`,
    cwd: path.resolve(process.env.BENCH_BASELINE),
    args: ['--import', 'tsx', 'server/main.ts'],
  });

const start = (variant, dataDir) =>
  startServer({ ...variant, dataDir, env: { WHISPER_MODEL_AUTO_DOWNLOAD: 'false', ...variant.env } });

async function mixed(base) {
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const p = MIX[next++ % MIX.length];
      const res = await fetch(base + p, {
        headers: { 'user-agent': UA, cookie: 'i18n_redirected=en' },
        redirect: 'manual',
      });
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const rows = [];
for (const variant of variants) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-lean-'));
  try {
    const first = await start(variant, dataDir);
    await sleep(3000);
    const idleFirst = memoryMb(first.proc.pid, 'VmRSS');
    const peakFirst = memoryMb(first.proc.pid, 'VmHWM');
    await first.stop();
    const s = await start(variant, dataDir);
    await sleep(3000);
    const idle = memoryMb(s.proc.pid, 'VmRSS');
    await mixed(s.base);
    await sleep(1000);
    const after = memoryMb(s.proc.pid, 'VmRSS');
    const peak = memoryMb(s.proc.pid, 'VmHWM');
    await s.stop();
    rows.push({ variant, first, idleFirst, peakFirst, s, idle, after, peak });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `web process, embedded default, ${os.availableParallelism()} cores; MB RSS, ms; ${REQUESTS} mixed requests at concurrency ${CONCURRENCY}`,
);
console.log(
  'variant'.padEnd(34) +
    'first start: answer'.padStart(20) +
    'idle'.padStart(6) +
    'peak'.padStart(6) +
    ' | restart: answer'.padStart(18) +
    'idle'.padStart(6) +
    'after reqs'.padStart(11) +
    'peak'.padStart(6),
);
for (const r of rows)
  console.log(
    r.variant.name.padEnd(34) +
      r.first.firstAnswerMs.toFixed(0).padStart(20) +
      r.idleFirst.toFixed(0).padStart(6) +
      r.peakFirst.toFixed(0).padStart(6) +
      r.s.firstAnswerMs.toFixed(0).padStart(18) +
      r.idle.toFixed(0).padStart(6) +
      r.after.toFixed(0).padStart(11) +
      r.peak.toFixed(0).padStart(6),
  );
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
