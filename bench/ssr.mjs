// `npm run bench:ssr`: page and API throughput of the web process (not a test; prints figures),
// side by side with an older checkout when BENCH_BASELINE names one (a `git worktree add … <commit>`
// with node_modules linked and its own `npx react-router build`; started as it was, with tsx).
// For each variant, one after the other on a fresh embedded database: /healthz; a public page for
// an anonymous visitor (/ and /de/login: the page cache serves these); the 401 of the user API;
// and, signed in through the real sign-up and its outbox mail, the user API, the transcript list
// API and the dashboard page. Ratios against /healthz in the same run are what to compare.
//   BENCH_REQUESTS (default 400), BENCH_CONCURRENCY (default 8)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { buildProduction, COMPILED, measure, sleep, startServer } from './lib/server.mjs';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

buildProduction();

const variants = [{ name: 'now', cwd: process.cwd(), args: COMPILED }];
if (process.env.BENCH_BASELINE)
  variants.unshift({
    name: 'baseline',
    cwd: path.resolve(process.env.BENCH_BASELINE),
    args: ['--import', 'tsx', 'server/main.ts'],
  });

async function signIn(base, dataDir) {
  const email = 'bench@example.test';
  const headers = { origin: base, 'content-type': 'application/json' };
  const r = await fetch(`${base}/common-api/v1/signup`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: 'a long secret 42' }),
  });
  if (!r.ok) throw new Error(`signup ${r.status}`);
  const dir = path.join(dataDir, 'outbox');
  for (let i = 0; ; i++) {
    let code = null;
    try {
      for (const f of readdirSync(dir).filter((f) => f.endsWith('.eml'))) {
        const mail = await simpleParser(readFileSync(path.join(dir, f)));
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
      const cookie = done.headers
        .getSetCookie()
        .find((c) => c.startsWith('token='))
        ?.split(';')[0];
      if (!cookie) throw new Error(`complete-signup ${done.status}`);
      return cookie;
    }
    if (i > 150) throw new Error('no verification mail');
    await sleep(200);
  }
}

const run = (base, urlPath, cookie) =>
  measure(base + urlPath, {
    requests: REQUESTS,
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

const results = new Map();
for (const v of variants) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-ssr-'));
  const server = await startServer({ ...v, dataDir, env: { WHISPER_MODEL_AUTO_DOWNLOAD: 'false' } });
  const { base } = server;
  try {
    const user = `i18n_redirected=en; ${await signIn(base, dataDir)}`;
    const cookies = { anon: 'i18n_redirected=en', de: 'i18n_redirected=de', user };
    for (const [name, urlPath, who] of CASES) {
      await run(base, urlPath, cookies[who]); // warm-up round
      results.set(`${v.name}|${name}`, await run(base, urlPath, cookies[who]));
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
console.log('case'.padEnd(38) + head + (variants.length > 1 ? '   now/baseline' : ''));
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
  if (variants.length > 1)
    line += `${(results.get(`now|${name}`).rps / results.get(`baseline|${name}`).rps).toFixed(2)}×`.padStart(
      15,
    );
  console.log(line);
}
