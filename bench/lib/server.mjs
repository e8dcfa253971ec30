// What the web benches share: build the production server, start it on a free port with a
// scratch data folder, send concurrent requests and time them, read a process's memory.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';

export const UA = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The client build (unless `onlyIfMissing` finds one) and the compiled server of build/node. */
export function buildProduction({ onlyIfMissing = false } = {}) {
  const stdio = ['ignore', 'ignore', 'inherit'];
  if (!onlyIfMissing || !existsSync('build/server/index.js'))
    spawnSync('npx', ['react-router', 'build'], { stdio });
  spawnSync(process.execPath, ['scripts/build-server.mjs'], { stdio });
}

export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });

/**
 * The production server with the SSR bench's bare handlers beside it (bench/lib/bare-main.ts),
 * compiled like the server into build/bench/ by `buildBareServer()`.
 */
export const WITH_BARE = ['--enable-source-maps', 'build/bench/bare-main.js'];

export async function buildBareServer() {
  const { buildServer } = await import('../../scripts/build-server.mjs');
  await buildServer(path.resolve('build/bench'), { 'bare-main': 'bench/lib/bare-main.ts' });
}

/** The production command of this checkout; a baseline checkout passes its own. */
export const COMPILED = ['--enable-source-maps', 'build/node/main.js'];

/**
 * Starts `node <args>` in `cwd` as a production server on the embedded database in `dataDir`
 * and waits for its first answer to /healthz (`firstAnswerMs` from the spawn).
 */
export async function startServer({
  name = 'server',
  cwd = process.cwd(),
  args = COMPILED,
  dataDir,
  env = {},
}) {
  const port = await freePort();
  const t0 = performance.now();
  const proc = spawn(process.execPath, args, {
    cwd,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 300_000; ;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      /* starting */
    }
    if (proc.exitCode !== null) throw new Error(`${name} exited`);
    if (Date.now() > deadline) throw new Error(`${name} did not start`);
    await sleep(20);
  }
  return {
    base,
    proc,
    firstAnswerMs: performance.now() - t0,
    async stop() {
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * `requests` GETs of `url` from `concurrency` workers (keep-alive, with the browser's user
 * agent): requests per second and the median and 95th-percentile times in ms (with the run's
 * `ms` and each request's `times`, for pooling several runs).
 */
export async function measure(url, { requests, concurrency, headers = {}, redirect = 'follow' }) {
  const times = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < requests) {
      next++;
      const t0 = performance.now();
      const res = await fetch(url, { headers: { 'user-agent': UA, ...headers }, redirect });
      await res.arrayBuffer();
      times.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = performance.now() - started;
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  return { rps: requests / (ms / 1000), p50: q(0.5), p95: q(0.95), ms, times };
}

/** A field of /proc/<pid>/status in MB: VmRSS (resident now) or VmHWM (its peak). */
export const memoryMb = (pid, field) =>
  Number(
    new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0,
  ) / 1024;

/** Signs a bench user up through the real API and its outbox mail; the `token=…` cookie. */
export async function signIn(base, dataDir) {
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
