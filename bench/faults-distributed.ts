// npm run bench:faults -- --distributed — the fault matrix of the distributed deployment (issue
// #30, decision 0034): two web processes and two workers (`node scripts/start.mjs [worker]`, as
// operators run them, each with a DATA_DIR of its own as on four machines) on a private
// PostgreSQL (initdb in a scratch folder, its own port), a private redis-server (append-only
// file, as the README asks) and s3rver (the S3-compatible store that installs with the project).
// Faults, each while real work is in flight: kill -9 the worker that runs a job, PostgreSQL
// restarted during an upload and during a job, Redis restarted with a job running and one
// waiting, the store unreachable for a minute (SIGSTOP: connections hang, as behind a dead link)
// during an upload and a job start, and a web process killed while event streams are open on it.
// After each: every process still up (unless the row killed it), uploads complete on resume or
// are refused cleanly, jobs end done or failed-with-reason within 10 minutes, `admin check` is
// clean (usage charged once, no orphan), and `transcript.completed` came at least once, one id.
//
//   npm run bench:faults -- --distributed [--only kill-worker,redis-restart]   (under flock /tmp/lock.bench)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeMedia } from '../server/test/media';
import { canRunPostgres, startPostgres, startRedis, startS3 } from '../server/test/private-services';
import { testModelPath } from '../server/test/test-model';
import {
  alive,
  api,
  createTranscript,
  doubled,
  engineBelow,
  hookReceiver,
  onlyArg,
  report,
  runRows,
  transcript,
  tusCreate,
  tusOffset,
  tusSend,
  until,
  upload,
  waitEnded,
  type Hooks,
  type Scenario,
  type Session,
  type Web,
} from './lib/faults-kit';
import { envFor, kill, launch, machine, type Deployment, type Proc } from './lib/deployment';
// @ts-expect-error plain ESM helpers shared by the web benches
import { freePort, signIn, sleep } from './lib/server.mjs';

const ROOT = path.resolve(process.env.FAULTS_DIR ?? 'tmp/bench-faults-distributed');
const PREFIX = `faults-${process.pid}`;

interface Ctx extends Deployment {
  hooks: Hooks;
  webs: Proc[];
  workers: Proc[];
  session: Session;
  longWav: string;
  shortWav: string;
}

/** Processes that ended though the row did not end them (each is started again). */
async function crashed(ctx: Ctx, spare: Proc[] = []): Promise<string[]> {
  const out: string[] = [];
  for (const list of [ctx.webs, ctx.workers]) {
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      if (p.proc.exitCode === null && p.proc.signalCode === null) continue;
      if (!spare.includes(p)) {
        const tail = readFileSync(p.log, 'utf8').trim().split('\n').slice(-3).join(' / ').slice(0, 300);
        out.push(`${p.name} exited (${p.proc.exitCode ?? p.proc.signalCode}): ${tail}`);
      }
      list[i] = await launch(ctx, p);
    }
  }
  return out;
}

function adminCheck(ctx: Ctx) {
  const r = spawnSync(process.execPath, ['scripts/start.mjs', 'admin', 'check'], {
    env: envFor(ctx, ctx.webs[0]!.dataDir, { LOG_LEVEL: 'warn' }),
    encoding: 'utf8',
  });
  return { clean: r.status === 0, out: `${r.stdout}${r.stderr}`.trim() };
}

/** Webhook deliveries of a finished transcript: waits for the first (retries are 2, 5, 10, 30 s apart). */
async function hookOf(ctx: Ctx, id: string) {
  await until(
    'the webhook',
    90_000,
    () => ctx.hooks.deliveries('transcript.completed', id).count > 0,
    500,
  ).catch(() => undefined);
  await sleep(2_000);
  return ctx.hooks.deliveries('transcript.completed', id);
}

/** What every row checks once the fault is over: processes, the jobs' ends, webhooks, admin check. */
async function aftermath(ctx: Ctx, ids: string[], opts: { spare?: Proc[] } = {}) {
  const problems: string[] = [];
  const crashes = await crashed(ctx, opts.spare);
  problems.push(...crashes);
  const ended = [];
  let dup = 0;
  for (const id of ids) {
    const e = await waitEnded(ctx.webs, ctx.session, id);
    ended.push(e);
    dup += doubled(e.segments);
    if (e.status === 'failed' && !e.error_code) problems.push(`${id} failed without a reason`);
    if (e.status === 'done') {
      const h = await hookOf(ctx, id);
      if (h.count < 1) problems.push(`no webhook for ${id}`);
      if (h.ids > 1) problems.push(`${h.ids} webhook ids for ${id}`);
    }
  }
  const check = adminCheck(ctx);
  if (!check.clean) problems.push(`admin check: ${check.out.split('\n').slice(-4).join(' / ')}`);
  const hooks = ids.map((id) => ctx.hooks.deliveries('transcript.completed', id));
  return {
    problems,
    crashes,
    ended,
    dup,
    summary: ended
      .map(
        (e, i) =>
          `${e.status}${e.error_code ? ` (${e.error_code})` : ''} in ${e.seconds} s, webhook ×${hooks[i]!.count}`,
      )
      .join('; '),
    hookIds: hooks.reduce((n, h) => n + Math.max(0, h.ids - 1), 0),
  };
}

function row(
  fault: string,
  inFlight: string,
  outcome: string,
  after: Awaited<ReturnType<typeof aftermath>>,
  extra: { lost?: string[]; ok?: boolean } = {},
) {
  const lost = [...(extra.lost ?? []), ...after.problems];
  return {
    fault,
    inFlight,
    outcome: `${outcome}; ${after.summary}${after.crashes.length ? '' : '; every process stayed up'}`,
    lost: lost.length ? lost.join('; ') : '0',
    duplicates: `${after.dup} segments, ${after.hookIds} extra webhook ids`,
    ok: lost.length === 0 && after.dup === 0 && after.hookIds === 0 && (extra.ok ?? true),
  };
}

/** A transcript of the long recording, started on web B from an upload on web A, once a worker's engine runs it. */
async function running(ctx: Ctx) {
  const [a, b] = ctx.webs as [Proc, Proc];
  const uploadId = await upload(a, ctx.session, ctx.longWav, 'long.wav');
  const id = await createTranscript(b, ctx.session, uploadId);
  const worker = await until('a worker to run the engine', 180_000, () =>
    ctx.workers.find((w) => engineBelow(w.proc.pid!)),
  );
  await until(
    'some progress',
    180_000,
    async () => ((await transcript(a, ctx.session, id))?.progress ?? 0) > 3,
    500,
  );
  return { id, worker, engine: engineBelow(worker.proc.pid!)! };
}

/**
 * An upload as tus-js-client sends it: PATCHes of 256 kB, and after a failed one, up to `retries`
 * tries (1 s, 2 s, 4 s … apart, at most 10 s) to ask the server for its offset and go on.
 */
async function resilientUpload(
  web: () => Web,
  s: Session,
  bytes: Buffer,
  opts: { onAck?: (o: number) => void; pauseMs?: number; retries?: number },
) {
  const id = await tusCreate(web(), s, bytes.length, 'resilient.wav');
  const answers: string[] = [];
  let offset = 0;
  for (let attempt = 0; ; attempt++) {
    const sent = await tusSend(web(), s, id, bytes, offset, {
      chunk: 256 << 10,
      pauseMs: opts.pauseMs ?? 0,
      onAck: opts.onAck,
    });
    if (sent.status === 204) return { id, answers, complete: true };
    answers.push(String(sent.status || 'no answer'));
    if (attempt >= (opts.retries ?? 12)) return { id, answers, complete: false };
    await sleep(Math.min(10_000, 1000 * 2 ** attempt));
    const at = await tusOffset(web(), s, id);
    if (at === null) {
      answers.push('HEAD failed');
      continue;
    }
    offset = at;
  }
}

// ---------- the rows ----------

const killWorker: Scenario<Ctx> = async (ctx) => {
  const { id, worker, engine } = await running(ctx);
  const before = await transcript(ctx.webs[0]!, ctx.session, id);
  const t0 = performance.now();
  await kill(worker);
  await sleep(10_000);
  const orphan = alive(engine);
  const other = ctx.workers.find((w) => w !== worker)!;
  const picked = await until('the other worker to take the job', 180_000, () =>
    engineBelow(other.proc.pid!),
  ).then(
    () => Math.round((performance.now() - t0) / 1000),
    () => null,
  );
  const after = await aftermath(ctx, [id], { spare: [worker] });
  return row(
    'kill -9 the worker running a job',
    `5 min of audio at ${before?.progress ?? '?'} % on ${worker.name}`,
    `${picked === null ? 'the other worker never took it' : `the other worker took it ${picked} s later`}; engine child ${orphan ? 'LEFT RUNNING' : 'ended with its worker'}`,
    after,
    { lost: orphan ? ['an orphan engine child'] : [], ok: picked !== null },
  );
};

const pgRestartUpload: Scenario<Ctx> = async (ctx) => {
  const bytes = readFileSync(ctx.shortWav);
  let acked = 0;
  const sending = resilientUpload(() => ctx.webs[0]!, ctx.session, bytes, {
    pauseMs: 80,
    onAck: (o) => (acked = o),
  });
  await until('30 % of the upload', 120_000, () => acked >= bytes.length * 0.3, 20);
  const at = acked;
  await ctx.pg.restart(2_500);
  const up = await sending;
  let id: string | null = null;
  let started = '';
  if (up.complete) {
    id = await createTranscript(ctx.webs[1]!, ctx.session, up.id).catch(
      (e: Error) => ((started = e.message), null),
    );
  }
  const after = await aftermath(ctx, id ? [id] : []);
  return row(
    'PostgreSQL restarted (2.5 s down) mid-upload',
    `tus upload to web-a at ${Math.round((at / bytes.length) * 100)} %`,
    `upload ${up.complete ? 'completed' : 'NOT completed'}${up.answers.length ? ` (answers on the way: ${up.answers.join(', ')})` : ' without a failed PATCH'}; ${id ? 'started on web-b' : `start refused: ${started}`}`,
    after,
    { lost: up.complete && id ? [] : ['the upload'] },
  );
};

const pgRestartJob: Scenario<Ctx> = async (ctx) => {
  const { id, worker } = await running(ctx);
  const before = await transcript(ctx.webs[0]!, ctx.session, id);
  await ctx.pg.restart(2_500);
  // A page asks right away: an answer (503 while away is fine), never a crash.
  const during = await api(ctx.webs[1]!, ctx.session, 'GET', `/transcripts/${id}`).catch(() => null);
  const after = await aftermath(ctx, [id]);
  return row(
    'PostgreSQL restarted (2.5 s down) mid-job',
    `5 min of audio at ${before?.progress ?? '?'} % on ${worker.name}`,
    `a GET right after: ${during?.status ?? 'no answer'}`,
    after,
  );
};

const redisRestart: Scenario<Ctx> = async (ctx) => {
  const { id } = await running(ctx);
  const [a, b] = ctx.webs as [Proc, Proc];
  const waiting = await createTranscript(
    b,
    ctx.session,
    await upload(a, ctx.session, ctx.shortWav, 'waiting.wav'),
  );
  const third = await createTranscript(
    b,
    ctx.session,
    await upload(a, ctx.session, ctx.shortWav, 'third.wav'),
  );
  await until(
    'both workers busy',
    120_000,
    () => ctx.workers.every((w) => engineBelow(w.proc.pid!)),
    500,
  ).catch(() => undefined);
  await ctx.redis.kill();
  // Starting a transcription while Redis is away: answered at once (queued; the sweep adds the job later).
  const t0 = performance.now();
  const during = await api(a, ctx.session, 'POST', '/transcripts', {
    upload_id: await upload(a, ctx.session, ctx.shortWav, 'during.wav').catch(() => null),
    detect_speech: false,
  }).catch((e: Error) => ({ status: 0, text: e.message, json: null }));
  const duringMs = Math.round(performance.now() - t0);
  await sleep(Math.max(0, 5_000 - duringMs));
  await ctx.redis.start();
  const ids = [id, waiting, third];
  const duringId = during.status === 200 ? (during.json?.data.id as string) : null;
  if (duringId) ids.push(duringId);
  const after = await aftermath(ctx, ids);
  return row(
    'Redis killed, back after 5 s (AOF)',
    'a job running on each worker, one waiting',
    `a transcription started while away: ${during.status} in ${duringMs} ms`,
    after,
    { ok: during.status === 200 || during.status === 503 },
  );
};

/** createTranscript, tried again after a 503's Retry-After (5 s), up to three times. */
async function startAfterOutage(web: Web, s: Session, uploadId: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await createTranscript(web, s, uploadId);
    } catch (err) {
      if (attempt >= 3 || !/^create transcript 503/.test((err as Error).message)) throw err;
      await sleep(5_000);
    }
  }
}

const storeDown: Scenario<Ctx> = async (ctx) => {
  const [a, b] = ctx.webs as [Proc, Proc];
  const bytes = readFileSync(ctx.shortWav);
  // A finished upload whose start will fetch it from the store while it is away.
  const ready = await upload(a, ctx.session, ctx.shortWav, 'ready.wav');
  let acked = 0;
  const sending = resilientUpload(() => a, ctx.session, bytes, { pauseMs: 50, onAck: (o) => (acked = o) });
  await until('20 % of the upload', 120_000, () => acked >= bytes.length * 0.2, 20);
  ctx.s3.pause();
  const t0 = performance.now();
  const start = await api(b, ctx.session, 'POST', '/transcripts', {
    upload_id: ready,
    detect_speech: false,
  }).catch((e: Error) => ({ status: 0, text: e.message, json: null }));
  const startMs = Math.round(performance.now() - t0);
  const ready2 = await fetch(`${a.base}/readyz`).then(
    async (r) => `${r.status} ${JSON.stringify(((await r.json()) as { checks?: unknown }).checks ?? {})}`,
    () => 'no answer',
  );
  await sleep(Math.max(0, 60_000 - (performance.now() - t0)));
  ctx.s3.resume();
  const up = await sending;
  const ids: string[] = [];
  let startNote = `${start.status} in ${startMs} ms`;
  if (start.status === 200) ids.push(start.json!.data.id as string);
  else {
    // Refused while the store was away: the same upload starts once it is back (as a client
    // does, again after Retry-After on a 503: each web process sees the store back within seconds).
    try {
      ids.push(await startAfterOutage(b, ctx.session, ready));
      startNote += ', started once it was back';
    } catch (e) {
      startNote += `, and once back: ${(e as Error).message.slice(0, 120)}`;
    }
  }
  let upId: string | null = null;
  if (up.complete) upId = await startAfterOutage(b, ctx.session, up.id).catch(() => null);
  if (upId) ids.push(upId);
  const after = await aftermath(ctx, ids);
  return row(
    'S3 store unreachable for 60 s (SIGSTOP)',
    'a tus upload at 20 %, a transcription being started',
    `start while away: ${startNote}; readyz while away: ${ready2}; upload ${up.complete ? 'completed on resume' : 'NOT completed'} (${up.answers.join(', ') || 'no failed PATCH'})`,
    after,
    { lost: [...(up.complete && upId ? [] : ['the upload']), ...(ids.length < 2 ? ['a start'] : [])] },
  );
};

const killWebStreams: Scenario<Ctx> = async (ctx) => {
  const { id } = await running(ctx);
  const [a] = ctx.webs as [Proc, Proc];
  const STREAMS = 20;
  let reconnects = 0;
  /** An EventSource as a page has it: on a broken stream, open it again on the other web process. */
  const follow = async (n: number) => {
    let web = n % 2 === 0 ? 0 : 1;
    let last = '';
    for (let tries = 0; tries < 50; tries++) {
      const base = ctx.webs[web]!.base;
      try {
        const r = await fetch(`${base}/self-api/v1/transcripts/${id}/events`, {
          headers: { ...ctx.session.headers },
        });
        if (r.status !== 200 || !r.body) throw new Error(String(r.status));
        const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const snaps = value.match(/"status":"(\w+)"/g);
          if (snaps) last = snaps[snaps.length - 1]!;
        }
        if (/done|failed/.test(last)) return last;
        throw new Error('closed before the end');
      } catch {
        reconnects++;
        web = 1 - web;
        await sleep(1_000);
      }
    }
    return last;
  };
  const streams = Array.from({ length: STREAMS }, (_, n) => follow(n));
  await sleep(3_000);
  await kill(a);
  const ends = await Promise.all(streams);
  const caught = ends.filter((e) => /done/.test(e)).length;
  const after = await aftermath(ctx, [id], { spare: [a] });
  return row(
    'kill -9 a web process with event streams open',
    `${STREAMS} event streams (half on web-a) on a running job`,
    `${reconnects} reconnects to the other web process; ${caught}/${STREAMS} streams saw the job done`,
    after,
    { lost: caught === STREAMS ? [] : [`${STREAMS - caught} streams never saw the end`] },
  );
};

const SCENARIOS: [string, Scenario<Ctx>][] = [
  ['kill-worker', killWorker],
  ['pg-restart-upload', pgRestartUpload],
  ['pg-restart-job', pgRestartJob],
  ['redis-restart', redisRestart],
  ['store-down', storeDown],
  ['kill-web-streams', killWebStreams],
];

// ---------- the run ----------

export async function main() {
  if (!canRunPostgres())
    throw new Error('PostgreSQL binaries (and a postgres user) are needed for --distributed');
  rmSync(ROOT, { recursive: true, force: true });
  for (const d of ['tmp', 'logs', 'outbox']) mkdirSync(path.join(ROOT, d), { recursive: true });
  console.log('Private PostgreSQL, Redis and s3rver…');
  const [pg, redis, s3] = [
    await startPostgres(path.join(ROOT, 'pg')),
    await startRedis(path.join(ROOT, 'redis')),
    await startS3(path.join(ROOT, 's3')),
  ];
  const media = path.join(ROOT, 'media');
  const ctx: Ctx = {
    pg,
    redis,
    s3,
    hooks: await hookReceiver(),
    model: await testModelPath(),
    root: ROOT,
    prefix: PREFIX,
    webs: [],
    workers: [],
    session: { headers: {} },
    longWav: makeMedia(media, 'wav', 300),
    shortWav: makeMedia(media, 'wav', 30),
  };
  try {
    console.log('Two web processes and two workers (node scripts/start.mjs builds what is missing first)…');
    for (const name of ['web-a', 'web-b'])
      ctx.webs.push(await launch(ctx, { name, role: 'web', port: await freePort(), dataDir: machine(ctx, name) }));
    for (const name of ['worker-1', 'worker-2'])
      ctx.workers.push(
        await launch(ctx, { name, role: 'worker', port: await freePort(), dataDir: machine(ctx, name) }),
      );
    ctx.session = { headers: { cookie: await signIn(ctx.webs[0]!.base, ROOT) } };
    const grant = spawnSync(
      process.execPath,
      ['scripts/start.mjs', 'admin', 'grant-rank', 'bench@example.test', 'Enterprise'],
      { env: envFor(ctx, ctx.webs[0]!.dataDir, { LOG_LEVEL: 'warn' }), encoding: 'utf8' },
    );
    if (grant.status !== 0) throw new Error(`grant-rank: ${grant.stdout}${grant.stderr}`);
    const hook = await api(ctx.webs[0]!, ctx.session, 'POST', '/webhooks', { url: ctx.hooks.url });
    if (hook.status !== 200)
      throw new Error(`webhook endpoint not made: ${hook.status} ${hook.text.slice(0, 200)}`);

    const rows = await runRows(SCENARIOS, ctx, onlyArg(), async (c) => {
      c.s3.resume();
      if (spawnSync('redis-cli', ['-u', c.redis.url, 'ping']).stdout?.toString().trim() !== 'PONG')
        await c.redis.start();
      await crashed(c, [...c.webs, ...c.workers]);
    });
    report(rows, 'distributed (2 web, 2 workers, PostgreSQL, Redis, s3rver)', path.join(ROOT, 'matrix.md'));
  } finally {
    for (const p of [...ctx.webs, ...ctx.workers]) await kill(p, 'SIGTERM').catch(() => undefined);
    ctx.hooks.server.close();
    s3.resume();
    await s3.close();
    await redis.close();
    pg.close();
  }
}
