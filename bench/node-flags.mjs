// `npm run bench:node-flags`: does a start-up option cost speed? (not a test; prints figures). Two
// web processes of this checkout run at once on their own embedded databases, one plain and one
// started with BENCH_NODE_FLAGS (default --optimize-for-size) and BENCH_NODE_ENV ('NAME=value …');
// each case alternates short slices between them, so the other sessions' load on the shared
// cores falls on both alike. Decision 0015 keeps the figures.
//   BENCH_SLICES (default 10), BENCH_SLICE (requests per slice, default 60), BENCH_CONCURRENCY (8)
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildProduction, COMPILED, measure, memoryMb, signIn, startServer } from './lib/server.mjs';

const SLICES = Number(process.env.BENCH_SLICES ?? 10);
const SLICE = Number(process.env.BENCH_SLICE ?? 60);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const FLAGS = (process.env.BENCH_NODE_FLAGS ?? '--optimize-for-size').split(' ').filter(Boolean);
const ENV = Object.fromEntries(
  (process.env.BENCH_NODE_ENV ?? '')
    .split(' ')
    .filter(Boolean)
    .map((kv) => kv.split('=')),
);
const CASES = [
  ['GET /healthz', '/healthz', false],
  ['page / (anonymous, cached)', '/', false],
  ['API /common-api/v1/user (signed in)', '/common-api/v1/user', true],
  ['page /dashboard (signed in)', '/dashboard', true],
];

buildProduction();

async function start(flags, env) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-flags-'));
  const server = await startServer({
    args: [...flags, ...COMPILED],
    dataDir,
    env: { WHISPER_MODEL_AUTO_DOWNLOAD: 'false', ...env },
  });
  return { ...server, dataDir };
}

const slice = async (base, urlPath, cookie) =>
  (
    await measure(base + urlPath, {
      requests: SLICE,
      concurrency: CONCURRENCY,
      headers: { 'accept-encoding': 'gzip', cookie },
      redirect: 'manual',
    })
  ).ms;

const servers = [await start([], {}), await start(FLAGS, ENV)];
try {
  const cookies = [];
  for (const s of servers) cookies.push(`i18n_redirected=en; ${await signIn(s.base, s.dataDir)}`);
  console.log(
    `plain vs ${[...FLAGS, ...Object.entries(ENV).map(([k, v]) => `${k}=${v}`)].join(' ')}: ${SLICES} alternating slices of ${SLICE} requests, concurrency ${CONCURRENCY}, ${os.availableParallelism()} cores`,
  );
  console.log('case'.padEnd(40) + 'plain req/s'.padStart(12) + 'flags req/s'.padStart(12) + '  flags/plain');
  for (const [name, urlPath, signedIn] of CASES) {
    const ms = [0, 0];
    for (let i = 0; i <= SLICES; i++) {
      for (const k of i % 2 ? [1, 0] : [0, 1]) {
        const took = await slice(servers[k].base, urlPath, signedIn ? cookies[k] : 'i18n_redirected=en');
        if (i > 0) ms[k] += took; // the first round warms up
      }
    }
    const rps = ms.map((t) => (SLICES * SLICE) / (t / 1000));
    console.log(
      name.padEnd(40) +
        rps[0].toFixed(0).padStart(12) +
        rps[1].toFixed(0).padStart(12) +
        `  ${(rps[1] / rps[0]).toFixed(2)}`,
    );
  }
  console.log(
    `RSS after the run, MB: plain ${memoryMb(servers[0].proc.pid, 'VmRSS').toFixed(0)}, flags ${memoryMb(servers[1].proc.pid, 'VmRSS').toFixed(0)}`,
  );
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  for (const s of servers) {
    await s.stop();
    rmSync(s.dataDir, { recursive: true, force: true });
  }
}
