// `npm run bench:ssr`: page and API throughput of the web process (not a test; prints figures),
// side by side with an older checkout when BENCH_BASELINE names one (a `git worktree add … <commit>`
// with node_modules linked and its own `npx react-router build`; started as it was, with tsx).
// For each variant, one after the other on a fresh embedded database: /healthz; a public page for
// an anonymous visitor (/ and /de/login: the page cache serves these); the 401 of the user API;
// and, signed in through the real sign-up and its outbox mail, the user API, the transcript list
// API and the dashboard page. Ratios against /healthz in the same run are what to compare.
// The user owns 25 imported transcripts (the list's first page holds 20). This checkout runs as
// bench/lib/bare-main.ts (the production server, compiled the same way) with bare Hono handlers
// (bench/lib/bare-handlers.ts) on BENCH_BARE_PORT, a second port of the same process, reading the same rows through the same PGlite handle; the user and list APIs are also
// printed as a ratio to them (the target is ≥ 0.8), alternating ten short slices of each.
//   BENCH_CASES=<regex> measures only the matching cases (and /healthz, the yardstick);
//   BENCH_CPU_PROF=<dir> starts this checkout's server with --cpu-prof into that folder;
//   BENCH_NODE_FLAGS='--flag …' / BENCH_NODE_ENV='NAME=value …' add this checkout started so.
//   BENCH_REQUESTS (default 400), BENCH_CONCURRENCY (default 8)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  buildBareServer,
  buildProduction,
  COMPILED,
  freePort,
  measure,
  signIn,
  startServer,
  WITH_BARE,
} from './lib/server.mjs';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

buildProduction();
await buildBareServer();

const variants = [{ name: 'now', cwd: process.cwd(), args: WITH_BARE }];
if (process.env.BENCH_BASELINE)
  variants.unshift({
    name: 'baseline',
    cwd: path.resolve(process.env.BENCH_BASELINE),
    // A checkout that has a compiled server runs it, as `npm start` does; an older one, with tsx.
    args: existsSync(path.join(process.env.BENCH_BASELINE, 'build/node/main.js'))
      ? COMPILED
      : ['--import', 'tsx', 'server/main.ts'],
  });
if (process.env.BENCH_NODE_FLAGS || process.env.BENCH_NODE_ENV)
  variants.push({
    name: 'flags',
    cwd: process.cwd(),
    args: [...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean), ...WITH_BARE],
    env: Object.fromEntries(
      (process.env.BENCH_NODE_ENV ?? '')
        .split(' ')
        .filter(Boolean)
        .map((kv) => kv.split('=')),
    ),
  });

async function importTranscripts(base, cookie, n) {
  for (let i = 0; i < n; i++) {
    const form = new FormData();
    const vtt = `WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nBench line ${i} one.\n\n00:00:02.000 --> 00:00:04.000\nBench line ${i} two.\n`;
    form.set('file', new File([vtt], `bench-${i}.vtt`, { type: 'text/vtt' }));
    const r = await fetch(`${base}/self-api/v1/transcripts/import`, {
      method: 'POST',
      headers: { cookie, origin: base },
      body: form,
    });
    if (!r.ok) throw new Error(`import ${r.status} ${await r.text()}`);
  }
}

const run = (base, urlPath, cookie, requests = REQUESTS) =>
  measure(base + urlPath, {
    requests,
    concurrency: CONCURRENCY,
    headers: { 'accept-encoding': 'gzip', cookie, origin: base },
    redirect: 'manual',
  });

const CASES = [
  ['GET /healthz', '/healthz', 'anon'],
  ['API /common-api/v1/user (401)', '/common-api/v1/user', 'anon'],
  ['page / (anonymous)', '/', 'anon'],
  ['page /de/login (anonymous)', '/de/login', 'de'],
  ['API /common-api/v1/user (signed in)', '/common-api/v1/user', 'user'],
  ['API transcript list (signed in)', '/self-api/v1/transcripts', 'user'],
  ['page /dashboard (signed in)', '/dashboard', 'user'],
];
// Ours beside the bare handler (same process, same rows): [name, our path, bare path].
const BARE = [
  ['API /common-api/v1/user (signed in)', '/common-api/v1/user', '/user'],
  ['API transcript list (signed in)', '/self-api/v1/transcripts', '/transcripts'],
];
const BARE_SLICES = 10;
const BARE_SLICE = Math.max(20, Math.round(REQUESTS / 4));
const pooled = (slices) => {
  const times = slices.flatMap((s) => s.times).sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  const ms = slices.reduce((t, s) => t + s.ms, 0);
  return { rps: times.length / (ms / 1000), p50: q(0.5), p95: q(0.95) };
};
const bareResults = new Map();
const only = process.env.BENCH_CASES ? new RegExp(process.env.BENCH_CASES) : null;
if (only) CASES.splice(0, CASES.length, ...CASES.filter(([name], i) => i === 0 || only.test(name)));
if (only) BARE.splice(0, BARE.length, ...BARE.filter(([name]) => only.test(name)));
if (process.env.BENCH_CPU_PROF)
  variants.find((v) => v.name === 'now').args = [
    '--cpu-prof',
    '--cpu-prof-dir',
    process.env.BENCH_CPU_PROF,
    ...WITH_BARE,
  ];

const results = new Map();
for (const v of variants) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-ssr-'));
  const barePort = v.name !== 'baseline' ? await freePort() : 0;
  const server = await startServer({
    ...v,
    dataDir,
    env: {
      WHISPER_MODEL_AUTO_DOWNLOAD: 'false',
      BENCH_BARE_PORT: barePort ? String(barePort) : '',
      ...v.env,
    },
  });
  const { base } = server;
  try {
    const user = `i18n_redirected=en; ${await signIn(base, dataDir)}`;
    await importTranscripts(base, user, 25);
    const cookies = { anon: 'i18n_redirected=en', de: 'i18n_redirected=de', user };
    for (const [name, urlPath, who] of CASES) {
      await run(base, urlPath, cookies[who]); // warm-up round
      results.set(`${v.name}|${name}`, await run(base, urlPath, cookies[who]));
    }
    if (barePort) {
      const bare = `http://127.0.0.1:${barePort}`;
      for (const [name, ours, theirs] of BARE) {
        await run(bare, theirs, user); // warm-up round
        // Many short alternating slices, so the other sessions' load falls on both sides alike.
        const slices = { ours: [], bare: [] };
        for (let round = 0; round < BARE_SLICES; round++) {
          slices.ours.push(await run(base, ours, user, BARE_SLICE));
          slices.bare.push(await run(bare, theirs, user, BARE_SLICE));
        }
        bareResults.set(`${v.name}|${name}`, slices);
      }
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `${REQUESTS} requests, concurrency ${CONCURRENCY}, ${os.availableParallelism()} cores (shared: compare ratios)`,
);
const head = variants.map((v) => `${v.name}: req/s  p50  p95  (÷healthz)`.padStart(42)).join('');
const first = variants[0].name;
const others = variants.slice(1).map((v) => v.name);
console.log('case'.padEnd(38) + head + others.map((o) => `${o}/${first}`.padStart(16)).join(''));
for (const [name] of CASES) {
  let line = name.padEnd(38);
  for (const v of variants) {
    const r = results.get(`${v.name}|${name}`);
    const h = results.get(`${v.name}|GET /healthz`);
    line +=
      `${r.rps.toFixed(0).padStart(12)} ${r.p50.toFixed(1).padStart(6)} ${r.p95.toFixed(1).padStart(6)}  (${(r.rps / h.rps).toFixed(2)})`.padStart(
        42,
      );
  }
  for (const o of others)
    line += `${(results.get(`${o}|${name}`).rps / results.get(`${first}|${name}`).rps).toFixed(2)}×`.padStart(
      16,
    );
  console.log(line);
}

if (bareResults.size) {
  console.log(
    `\nours ÷ bare Hono handler (same process, same rows; ${BARE_SLICES} alternating slices of ${BARE_SLICE} requests)`,
  );
  console.log(
    'case'.padEnd(46) +
      'ours req/s  p50  p95'.padStart(26) +
      'bare req/s  p50  p95'.padStart(26) +
      '  ratio  (slice ratios min–max)',
  );
  const cell = (r) =>
    `${r.rps.toFixed(0).padStart(10)} ${r.p50.toFixed(1).padStart(6)} ${r.p95.toFixed(1).padStart(6)}`;
  for (const [name, slices] of bareResults) {
    const ours = pooled(slices.ours);
    const bare = pooled(slices.bare);
    const each = slices.ours.map((o, i) => o.rps / slices.bare[i].rps).sort((a, b) => a - b);
    console.log(
      name.padEnd(46) +
        cell(ours).padStart(26) +
        cell(bare).padStart(26) +
        `  ${(ours.rps / bare.rps).toFixed(2)}   (${each[0].toFixed(2)}–${each.at(-1).toFixed(2)})`,
    );
  }
}
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
