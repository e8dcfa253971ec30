import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildServer, SERVER_OUT, serverBuildIsStale } from '../../scripts/build-server.mjs';
import { waitFor } from '../../server/test/wait';

export interface RunningServer {
  url: string;
  dataDir: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/**
 * A data directory for a new server: a copy of the template the global setup left (a fresh
 * server's database, migrated and empty, stopped cleanly) when there is one, else empty. Setting
 * up a database takes a fresh server 10–60 s on two cores; a copy starts in a few.
 */
function newDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-e2e-'));
  const template = process.env.CS_E2E_TEMPLATE_DIR;
  if (template) cpSync(template, dir, { recursive: true, filter: (src) => !src.endsWith('.lock') });
  return dir;
}

/** Starts a server on an empty data dir, stops it and returns the dir (newDataDir's template). */
export async function makeTemplateDataDir(env: Record<string, string>): Promise<string> {
  const server = await startServer(env, { keepData: true });
  await server.stop();
  return server.dataDir;
}

/**
 * Starts the production server, compiled as `npm start` runs it (build/node/main.js, recompiled here
 * when older than its sources; the web build must exist), on a free port with its own data dir.
 */
export async function startServer(
  env: Record<string, string> = {},
  opts: { dataDir?: string; keepData?: boolean } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = opts.dataDir ?? newDataDir();
  if (serverBuildIsStale()) await buildServer();
  const proc = spawn(process.execPath, ['--enable-source-maps', path.join(SERVER_OUT, 'main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      // Whisper alone unless a test turns the other model families on (no test fetches real weights).
      ENGINE_FAMILIES: '',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
      // Not listening yet: try again.
      return fetch(`${url}/healthz`).then(
        (res) => res.ok,
        () => false,
      );
    },
    // A fresh database migrates first: close to a minute on a busy 2-core machine.
    { ms: 180_000, everyMs: 200, what: 'the server to start' },
  );
  return {
    url,
    dataDir,
    proc,
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      if (!opts.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Gives an account a plan with the operator's command, which needs the embedded database to
 * itself: the server stops, `admin grant-rank` runs on its data, and it starts again (returned).
 */
export async function grantRank(
  server: RunningServer,
  env: Record<string, string>,
  email: string,
  rank: string,
): Promise<RunningServer> {
  const { dataDir } = server;
  await server.stop();
  const grant = spawnSync(process.execPath, [path.join(SERVER_OUT, 'admin.js'), 'grant-rank', email, rank], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (grant.status !== 0) throw new Error(`grant-rank failed: ${grant.stderr}`);
  return startServer(env, { dataDir });
}
