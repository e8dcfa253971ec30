// `npm run bench:node-flags`: does a start-up option cost speed? (not a test; prints figures). Two
// web processes of this checkout run at once on their own embedded databases, one plain and one
// started with BENCH_NODE_FLAGS (default --optimize-for-size) and BENCH_NODE_ENV ('NAME=value …');
// each case alternates short slices between them, so the other sessions' load on the shared
// cores falls on both alike. Decision 0015 keeps the figures.
//   BENCH_SLICES (default 10), BENCH_SLICE (requests per slice, default 60), BENCH_CONCURRENCY (8)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { simpleParser } from 'mailparser';

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
const UA = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36';
const CASES = [
  ['GET /healthz', '/healthz', false],
  ['page / (anonymous, cached)', '/', false],
  ['API /common-api/v1/user (signed in)', '/common-api/v1/user', true],
  ['page /dashboard (signed in)', '/dashboard', true],
];

spawnSync('npx', ['react-router', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
spawnSync(process.execPath, ['scripts/build-server.mjs'], { stdio: ['ignore', 'ignore', 'inherit'] });

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const status = (pid, field) =>
  Number(
    new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0,
  ) / 1024;

async function startServer(flags, env) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-flags-'));
  const port = await freePort();
  const proc = spawn(process.execPath, [...flags, '--enable-source-maps', 'build/node/main.js'], {
    env: {
      ...process.env,
      ...env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      DATABASE_URL: '',
      WHISPER_MODEL_AUTO_DOWNLOAD: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      /* starting */
    }
    if (i > 1200) throw new Error('the server did not start');
    await sleep(100);
  }
  return { base, dataDir, proc };
}

async function signIn(base, dataDir) {
  const email = 'bench@example.test';
  const headers = { origin: base, 'content-type': 'application/json' };
  const r = await fetch(`${base}/common-api/v1/signup`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: 'a long secret 42' }),
  });
  if (!r.ok) throw new Error(`signup ${r.status}`);
  for (let i = 0; i < 150; i++) {
    let code = null;
    try {
      for (const f of readdirSync(path.join(dataDir, 'outbox'))) {
        const mail = await simpleParser(readFileSync(path.join(dataDir, 'outbox', f)));
        code ??= /\b(\d{6})\b/.exec(mail.text ?? '')?.[1] ?? null;
      }
    } catch {
      /* no outbox yet */
    }
    if (code) {
      const done = await fetch(`${base}/common-api/v1/complete-signup`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email, code }),
      });
      return `i18n_redirected=en; ${
        done.headers
          .getSetCookie()
          .find((c) => c.startsWith('token='))
          .split(';')[0]
      }`;
    }
    await sleep(200);
  }
  throw new Error('no verification mail');
}

async function slice(base, urlPath, cookie) {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next++ < SLICE) {
      const res = await fetch(base + urlPath, {
        headers: { 'user-agent': UA, 'accept-encoding': 'gzip', cookie },
        redirect: 'manual',
      });
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return performance.now() - started;
}

const servers = [await startServer([], {}), await startServer(FLAGS, ENV)];
try {
  const cookies = [];
  for (const s of servers) cookies.push(await signIn(s.base, s.dataDir));
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
    `RSS after the run, MB: plain ${status(servers[0].proc.pid, 'VmRSS').toFixed(0)}, flags ${status(servers[1].proc.pid, 'VmRSS').toFixed(0)}`,
  );
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  for (const s of servers) {
    const exited = new Promise((r) => s.proc.once('exit', r));
    s.proc.kill('SIGTERM');
    await exited;
    rmSync(s.dataDir, { recursive: true, force: true });
  }
}
