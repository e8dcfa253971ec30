// The distributed deployment as the benches run it (bench:faults --distributed, bench:load
// --distributed): web processes and workers started as operators start them (`node
// scripts/start.mjs [worker]`), each with a DATA_DIR of its own as on separate machines, on a
// private PostgreSQL, a private redis-server and s3rver (server/test/private-services.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type { PrivatePostgres, PrivateRedis, PrivateS3 } from '../../server/test/private-services';
import { until, type Web } from './faults-kit';

export interface Deployment {
  pg: PrivatePostgres;
  redis: PrivateRedis;
  s3: PrivateS3;
  /** The engine's model file. */
  model: string;
  /** The run's folder: logs/, tmp/, outbox/ and one folder per process. */
  root: string;
  /** BullMQ's key prefix, so runs never share queues. */
  prefix: string;
  /** More environment for every process (METRICS_TOKEN …). */
  env?: Record<string, string>;
}

export interface Proc extends Web {
  name: string;
  role: 'web' | 'worker';
  port: number;
  dataDir: string;
  proc: ChildProcess;
  log: string;
}

export function envFor(d: Deployment, dataDir: string, extra: Record<string, string> = {}) {
  return {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: d.pg.url,
    REDIS_URL: d.redis.url,
    QUEUE_PREFIX: d.prefix,
    S3_BUCKET: d.s3.bucket,
    S3_ENDPOINT: d.s3.endpoint,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    SMTP_URL: '',
    LOG_LEVEL: 'info',
    WHISPER_MODEL: d.model,
    WHISPER_THREADS: '1',
    WHISPER_WATCHDOG_MS: '60000',
    ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '2,5,10,30',
    TMPDIR: path.join(d.root, 'tmp'),
    ...d.env,
    ...extra,
  };
}

/** A folder standing for one machine's disk; the mails of every process land in one outbox. */
export function machine(d: Pick<Deployment, 'root'>, name: string) {
  const dir = path.join(d.root, name);
  mkdirSync(dir, { recursive: true });
  symlinkSync(path.join(d.root, 'outbox'), path.join(dir, 'outbox'));
  return dir;
}

/** Starts one process and waits for its /readyz (web: PORT; worker: HEALTH_PORT). */
export async function launch(
  d: Deployment,
  p: Omit<Proc, 'proc' | 'log' | 'base'> & { base?: string },
): Promise<Proc> {
  const log = path.join(d.root, 'logs', `${p.name}.log`);
  const out = openSync(log, 'a');
  const args = ['scripts/start.mjs', ...(p.role === 'worker' ? ['worker'] : [])];
  const proc = spawn(process.execPath, args, {
    env: envFor(d, p.dataDir, p.role === 'web' ? { PORT: String(p.port) } : { HEALTH_PORT: String(p.port) }),
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const full: Proc = { ...p, base: `http://127.0.0.1:${p.port}`, proc, log };
  await until(`${p.name} to be ready (log ${log})`, 180_000, async () => {
    if (proc.exitCode !== null) throw new Error(`${p.name} exited with ${proc.exitCode}; log ${log}`);
    const r = await fetch(`${full.base}/readyz`).catch(() => null);
    return r?.ok;
  });
  return full;
}

export async function kill(p: Proc, signal: NodeJS.Signals = 'SIGKILL') {
  if (p.proc.exitCode !== null || p.proc.signalCode !== null) return;
  const exited = new Promise((r) => p.proc.once('exit', r));
  p.proc.kill(signal);
  await exited;
}
