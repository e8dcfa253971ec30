// `npm run bench`: prints figures for the web shell (not a test; no pass/fail).
// Starts the production server on a free port with a scratch data dir, then measures
// SSR pages and API calls with concurrent keep-alive requests, and argon2id hashing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const UA = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36';

if (!existsSync('build/server/index.js')) spawnSync('npx', ['react-router', 'build'], { stdio: 'inherit' });
spawnSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-'));
const server = spawn(process.execPath, ['--enable-source-maps', 'build/node/main.js'], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    DATABASE_URL: '',
  },
  stdio: 'inherit',
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {
    /* starting */
  }
  if (i > 300) throw new Error('server did not start');
  await new Promise((r) => setTimeout(r, 100));
}

async function measure(name, path, init = {}) {
  const times = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < REQUESTS) {
      next++;
      const t0 = performance.now();
      const res = await fetch(base + path, {
        ...init,
        headers: { 'user-agent': UA, cookie: 'i18n_redirected=en', ...(init.headers ?? {}) },
      });
      await res.arrayBuffer();
      times.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const total = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
  console.log(
    `${name.padEnd(28)} ${(REQUESTS / total).toFixed(0).padStart(6)} req/s   p50 ${q(0.5)} ms   p95 ${q(0.95)} ms`,
  );
}

console.log(`requests ${REQUESTS}, concurrency ${CONCURRENCY}, ${os.cpus().length} cores`);
await measure('GET /healthz', '/healthz');
await measure('GET /common-api/v1/user (401)', '/common-api/v1/user');
await measure('SSR /', '/');
await measure('SSR /de/login', '/de/login', { headers: { cookie: 'i18n_redirected=de' } });
await measure('SSR 404 /no/such/page', '/no/such/page');

const { hash } = await import('@node-rs/argon2');
const t0 = performance.now();
for (let i = 0; i < 10; i++) await hash(`password-${i}`);
console.log(`argon2id hash                 ${((performance.now() - t0) / 10).toFixed(1)} ms each`);

server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });
