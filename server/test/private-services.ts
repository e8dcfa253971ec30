// Private PostgreSQL, Redis and S3-compatible (s3rver) servers for the fault matrix, the load run
// and the services tests that restart them: each on its own port with its own data folder, so
// they can be stopped, restarted and killed without touching the machine's shared services.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer } from 'node:net';

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const PG_BIN = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const version = readdirSync(root).sort().pop();
  return version ? path.join(root, version, 'bin') : null;
})();

function run(cmd: string, args: string[], asPostgres = false) {
  const full =
    asPostgres && process.getuid?.() === 0
      ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]]
      : [cmd, args];
  const r = spawnSync(full[0] as string, full[1] as string[], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr || r.stdout}`);
  return r.stdout;
}

export const canRunPostgres = () => PG_BIN !== null && spawnSync('id', ['postgres']).status === 0;

export interface PrivatePostgres {
  url: string;
  port: number;
  /** pg_ctl restart -m fast: every connection gets "terminating connection due to administrator command". */
  restart(downMs?: number): Promise<void>;
  stop(): void;
  start(): void;
  close(): void;
}

/** A PostgreSQL cluster of its own under `dir` (initdb on first use), trust auth, on a free port. */
export async function startPostgres(dir: string): Promise<PrivatePostgres> {
  if (!PG_BIN) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql');
  const port = await freePort();
  const data = path.join(dir, 'pgdata');
  mkdirSync(dir, { recursive: true });
  if (process.getuid?.() === 0) chownSync(dir, Number(run('id', ['-u', 'postgres']).trim()), 0);
  if (!existsSync(path.join(data, 'PG_VERSION')))
    run(path.join(PG_BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'], true);
  const ctl = (...args: string[]) => run(path.join(PG_BIN, 'pg_ctl'), ['-D', data, ...args], true);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () => ctl('-o', opts, '-l', path.join(dir, 'log'), '-w', 'start');
  const stop = () => ctl('-m', 'fast', '-w', 'stop');
  // One left running by an interrupted run.
  if (existsSync(path.join(data, 'postmaster.pid'))) ctl('-m', 'immediate', '-w', 'stop');
  start();
  try {
    run(path.join(PG_BIN, 'createdb'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'postgres',
      'clipscribe',
    ]);
  } catch (err) {
    if (!/already exists/.test((err as Error).message)) throw err;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/clipscribe`,
    port,
    async restart(downMs = 0) {
      stop();
      if (downMs) await sleep(downMs);
      start();
    },
    stop,
    start,
    close() {
      try {
        stop();
      } catch {
        // not running
      }
    },
  };
}

export interface PrivateRedis {
  url: string;
  /** Stops Redis (SIGTERM: it writes its append-only file) and starts it again after downMs. */
  restart(downMs?: number): Promise<void>;
  kill(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** redis-server with persistence as the README asks for it (appendonly yes, fsync every second). */
export async function startRedis(dir: string, opts: { aof?: boolean } = {}): Promise<PrivateRedis> {
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  let proc: ChildProcess | null = null;
  const start = async () => {
    proc = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        opts.aof === false ? 'no' : 'yes',
        '--appendfsync',
        'everysec',
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      if (
        spawnSync('redis-cli', ['-p', String(port), 'ping'])
          .stdout?.toString()
          .includes('PONG')
      )
        return;
      await sleep(50);
    }
    throw new Error('redis-server did not start');
  };
  const stopWith = async (signal: NodeJS.Signals) => {
    const p = proc;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill(signal);
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart(downMs = 0) {
      await stopWith('SIGTERM');
      if (downMs) await sleep(downMs);
      await start();
    },
    kill: () => stopWith('SIGKILL'),
    start,
    close: () => stopWith('SIGTERM'),
  };
}

export interface PrivateS3 {
  endpoint: string;
  bucket: string;
  /** Stops answering (SIGSTOP: connections hang, as with a store behind a dead link). */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

/** s3rver (a devDependency) as its own process, with one bucket. */
export async function startS3(dir: string, bucket = 'clipscribe'): Promise<PrivateS3> {
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  const proc = spawn(
    process.execPath,
    [
      'node_modules/s3rver/bin/s3rver.js',
      '-d',
      dir,
      '-a',
      '127.0.0.1',
      '-p',
      String(port),
      '--silent',
      '--configure-bucket',
      bucket,
    ],
    { stdio: 'ignore' },
  );
  const endpoint = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      await fetch(endpoint);
      break;
    } catch {
      if (i > 200) throw new Error('s3rver did not start');
      await sleep(50);
    }
  }
  return {
    endpoint,
    bucket,
    pause: () => void proc.kill('SIGSTOP'),
    resume: () => void proc.kill('SIGCONT'),
    async close() {
      proc.kill('SIGCONT');
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}
