// `npm run bench`: prints figures for the web shell (not a test; no pass/fail).
// Starts the production server on a free port with a scratch data dir, then measures
// SSR pages and API calls with concurrent keep-alive requests, and argon2id hashing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildProduction, measure, startServer } from './lib/server.mjs';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

buildProduction({ onlyIfMissing: true });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-'));
const server = await startServer({ dataDir });

async function row(name, urlPath, cookie = 'i18n_redirected=en') {
  const r = await measure(server.base + urlPath, {
    requests: REQUESTS,
    concurrency: CONCURRENCY,
    headers: { cookie },
  });
  console.log(
    `${name.padEnd(28)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(1)} ms   p95 ${r.p95.toFixed(1)} ms`,
  );
}

console.log(`requests ${REQUESTS}, concurrency ${CONCURRENCY}, ${os.cpus().length} cores`);
await row('GET /healthz', '/healthz');
await row('GET /common-api/v1/user (401)', '/common-api/v1/user');
await row('SSR /', '/');
await row('SSR /de/login', '/de/login', 'i18n_redirected=de');
await row('SSR 404 /no/such/page', '/no/such/page');

const { hash } = await import('@node-rs/argon2');
const t0 = performance.now();
for (let i = 0; i < 10; i++) await hash(`password-${i}`);
console.log(`argon2id hash                 ${((performance.now() - t0) / 10).toFixed(1)} ms each`);

await server.stop();
rmSync(dataDir, { recursive: true, force: true });
