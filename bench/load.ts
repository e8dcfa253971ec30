// npm run bench:load — mixed traffic on the embedded default (issue #30, decision 0034): the
// compiled server (build/node/main.js, as `npm start` runs it) on PGlite with the job runner in
// the same process, and at once: 200 event streams held open on two long transcriptions (one
// running, one waiting behind it), 20 uploads at a time, pages and API calls at a set rate. Prints p50/p95/p99 per kind, 5xx
// and failed requests, the server's RSS over time and its event-loop delay (from /metrics).
//
//   npm run bench:load [-- --minutes 10 --streams 200 --uploads 20 --rate 20]  (under flock /tmp/lock.bench)
//   npm run bench:load -- --distributed   the same traffic spread over two web processes, with two
//     workers, on a private PostgreSQL, Redis and s3rver (bench/lib/deployment.ts, as
//     bench:faults --distributed runs them); each upload stays on the web process it began on.
//
// A stream whose transcription ended is opened again as an EventSource would (after the server's
// `retry:` hint, else 3 s); `--skip-finished 1` never reopens on a finished one instead (the old
// workaround, for comparing). `--hold-minutes 60` lets the first held transcription end in the run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeMedia } from '../server/test/media';
import { canRunPostgres, startPostgres, startRedis, startS3 } from '../server/test/private-services';
import { testModelPath } from '../server/test/test-model';
import { envFor, kill, launch, machine, type Deployment, type Proc } from './lib/deployment';
// @ts-expect-error plain ESM helpers shared by the web benches
import { buildProduction, freePort, memoryMb, signIn, sleep, startServer } from './lib/server.mjs';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const MINUTES = arg('minutes', 10);
const STREAMS = arg('streams', 200);
const UPLOADS = arg('uploads', 20);
const RATE = arg('rate', 20);
const TRANSCRIPTIONS = arg('transcriptions', 2);
const UPLOAD_MB = arg('upload-mb', 4);
/** Minutes of audio in each held transcription: more than the engine gets through in the run. */
const HOLD_MINUTES = arg('hold-minutes', 240);
/** Never reopen a stream on a finished transcription (before the light answer, this avoided a storm). */
const SKIP_FINISHED = arg('skip-finished', 0) === 1;
const DISTRIBUTED = process.argv.includes('--distributed');
/** An EventSource's wait before it reconnects when the server gave no `retry:`. */
const DEFAULT_RETRY_MS = 3_000;
const TOKEN = 'load-bench-metrics-token-0123456789';

type Kind =
  'page' | 'api-list' | 'api-get' | 'upload-create' | 'upload-patch' | 'stream-open' | 'transcribe-start';
const times = new Map<Kind, number[]>();
const status = { '5xx': 0, '4xx': 0, failed: 0, total: 0 };
const firstErrors: string[] = [];
function record(kind: Kind, ms: number, code: number | null, what = '') {
  (times.get(kind) ?? times.set(kind, []).get(kind)!).push(ms);
  status.total++;
  if (code === null) status.failed++;
  else if (code >= 500) status['5xx']++;
  else if (code >= 400) status['4xx']++;
  if ((code === null || code >= 400) && firstErrors.length < 10)
    firstErrors.push(`${kind} ${code ?? 'failed'} ${what}`.trim());
}
async function timed(kind: Kind, url: string, init: RequestInit = {}, expect?: number) {
  const t0 = performance.now();
  try {
    const r = await fetch(url, init);
    const body = Buffer.from(await r.arrayBuffer());
    record(
      kind,
      performance.now() - t0,
      r.status,
      r.status >= 400 ? `${url} ${body.toString('utf8', 0, 120)}` : '',
    );
    if (expect !== undefined && r.status !== expect) return null;
    return { status: r.status, headers: r.headers, json: () => JSON.parse(body.toString('utf8')) as unknown };
  } catch (err) {
    record(kind, performance.now() - t0, null, (err as Error).message);
    return null;
  }
}

interface Target {
  /** What runs: printed with the figures. */
  label: string;
  /** The web processes' addresses; traffic is spread over them. */
  bases: string[];
  cookie: string;
  /** Every process whose memory is sampled. */
  procs: { name: string; pid: number }[];
  stop(): Promise<void>;
}

/** The embedded default: one process (web + jobs) on PGlite, as `npm start` runs it. */
async function embedded(model: string): Promise<Target> {
  const dataDir = path.resolve(process.env.LOAD_DIR ?? 'tmp/bench-load');
  rmSync(dataDir, { recursive: true, force: true });
  const env = { WHISPER_MODEL: model, WHISPER_THREADS: '1', METRICS_TOKEN: TOKEN, LOG_LEVEL: 'warn' };
  let server = await startServer({ name: 'load', dataDir, env });
  const cookie: string = await signIn(server.base, dataDir);
  // 20 uploads at once and two transcriptions exceed the Free plan: the operator grants one.
  await server.stop();
  spawnSync(process.execPath, ['scripts/start.mjs', 'admin', 'grant-rank', 'bench@example.test', 'Enterprise'], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' },
    stdio: 'ignore',
  });
  server = await startServer({ name: 'load', dataDir, env });
  return {
    label: 'embedded (one process, PGlite)',
    bases: [server.base],
    cookie,
    procs: [{ name: 'server', pid: server.proc.pid }],
    stop: () => server.stop(),
  };
}

/** Two web processes and two workers on a private PostgreSQL, Redis and s3rver. */
async function distributed(model: string): Promise<Target> {
  if (!canRunPostgres()) throw new Error('PostgreSQL binaries (and a postgres user) are needed for --distributed');
  const root = path.resolve(process.env.LOAD_DIR ?? 'tmp/bench-load-distributed');
  rmSync(root, { recursive: true, force: true });
  for (const dir of ['tmp', 'logs', 'outbox']) mkdirSync(path.join(root, dir), { recursive: true });
  const d: Deployment = {
    pg: await startPostgres(path.join(root, 'pg')),
    redis: await startRedis(path.join(root, 'redis')),
    s3: await startS3(path.join(root, 's3')),
    model,
    root,
    prefix: `load-${process.pid}`,
    env: { METRICS_TOKEN: TOKEN, LOG_LEVEL: 'warn' },
  };
  const procs: Proc[] = [];
  const stop = async () => {
    for (const p of procs) await kill(p, 'SIGTERM').catch(() => undefined);
    await d.s3.close();
    await d.redis.close();
    d.pg.close();
  };
  try {
    for (const [name, role] of [
      ['web-a', 'web'],
      ['web-b', 'web'],
      ['worker-1', 'worker'],
      ['worker-2', 'worker'],
    ] as const)
      procs.push(await launch(d, { name, role, port: await freePort(), dataDir: machine(d, name) }));
    const webs = procs.filter((p) => p.role === 'web');
    const cookie: string = await signIn(webs[0]!.base, root);
    const grant = spawnSync(
      process.execPath,
      ['scripts/start.mjs', 'admin', 'grant-rank', 'bench@example.test', 'Enterprise'],
      { env: envFor(d, webs[0]!.dataDir, { LOG_LEVEL: 'warn' }), encoding: 'utf8' },
    );
    if (grant.status !== 0) throw new Error(`grant-rank: ${grant.stdout}${grant.stderr}`);
    return {
      label: 'distributed (2 web, 2 workers, PostgreSQL, Redis, s3rver)',
      bases: webs.map((w) => w.base),
      cookie,
      procs: procs.map((p) => ({ name: p.name, pid: p.proc.pid! })),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function main() {
  buildProduction({ onlyIfMissing: true });
  const model = await testModelPath();
  const target = DISTRIBUTED ? await distributed(model) : await embedded(model);
  const { bases, cookie } = target;
  const base = bases[0]!;
  /** The n-th request's web process (round robin), with the headers a browser would send it. */
  const web = (n: number) => bases[n % bases.length]!;
  const authFor = (at: string) => ({ cookie, origin: at });
  const auth = authFor(base);
  const json = { ...auth, 'content-type': 'application/json' };

  const media = path.resolve('tmp/bench-load-media');
  const audio = readFileSync(makeMedia(media, 'wav', 120));
  const uploadBytes = Buffer.alloc(UPLOAD_MB << 20, 7);
  const b64 = (v: string) => Buffer.from(v).toString('base64');

  /** A tus upload, every request of it to `at` (uploads in progress live on one web process). */
  async function uploadOnce(at: string, bytes: Buffer, name: string, keep: boolean): Promise<string | null> {
    const auth = authFor(at);
    const r = await timed(
      'upload-create',
      `${at}/self-api/v1/uploads`,
      {
        method: 'POST',
        headers: {
          ...auth,
          'Tus-Resumable': '1.0.0',
          'Upload-Length': String(bytes.length),
          'Upload-Metadata': `filename ${b64(name)},filetype ${b64('audio/wav')}`,
        },
      },
      201,
    );
    if (!r) return null;
    const url = `${at}/self-api/v1/uploads/${r.headers.get('location')!.split('/').pop()}`;
    for (let offset = 0; offset < bytes.length;) {
      const part = bytes.subarray(offset, Math.min(bytes.length, offset + (1 << 20)));
      const p = await timed(
        'upload-patch',
        url,
        {
          method: 'PATCH',
          headers: {
            ...auth,
            'Tus-Resumable': '1.0.0',
            'Upload-Offset': String(offset),
            'content-type': 'application/offset+octet-stream',
          },
          body: new Uint8Array(part),
        },
        204,
      );
      if (!p) return null;
      offset = Number(p.headers.get('upload-offset'));
    }
    if (!keep)
      await fetch(url, { method: 'DELETE', headers: { ...auth, 'Tus-Resumable': '1.0.0' } }).catch(
        () => null,
      );
    return url.split('/').pop()!;
  }

  // Something to browse: three finished transcripts.
  const browse: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = await uploadOnce(base, audio.subarray(0, 44 + 16000 * 2 * 10), `seed-${i}.wav`, true);
    const r = await fetch(`${base}/self-api/v1/transcripts`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ upload_id: id, detect_speech: false }),
    });
    browse.push(((await r.json()) as { data: { id: string } }).data.id);
  }

  // The transcriptions the streams are held on: TRANSCRIPTIONS recordings long enough to outlast
  // the run (speech detection off, so the engine works on all of it). The lane runs one job at a
  // time (JOB_CONCURRENCY=1, the default), so the first runs the whole time and the others wait
  // behind it: event streams on them stay open, as a page open on work in progress does; a
  // stream on a finished transcript would close at once and measure nothing.
  const longAudio = readFileSync(makeMedia(media, 'wav', HOLD_MINUTES * 60));
  const holds: string[] = [];
  for (let i = 0; i < TRANSCRIPTIONS; i++) {
    const id = await uploadOnce(base, longAudio, `long-${i}.wav`, true);
    const r = await timed('transcribe-start', `${base}/self-api/v1/transcripts`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ upload_id: id, detect_speech: false }),
    });
    if (r?.status !== 200) throw new Error(`could not start transcription ${i}`);
    holds.push((r.json() as { data: { id: string } }).data.id);
  }

  const deadline = Date.now() + MINUTES * 60_000;
  const running = () => Date.now() < deadline;
  const state = async (id: string) =>
    (
      (await fetch(`${base}/self-api/v1/transcripts/${id}`, { headers: auth })
        .then((x) => x.json())
        .catch(() => null)) as { data?: { status: string; progress: number } } | null
    )?.data;

  // Event streams held open on those transcriptions for the whole run; one that closes early
  // (its transcription ended, or the server dropped it) is counted and opened again.
  let streamsOpen = 0;
  let streamEvents = 0;
  let streamsReopened = 0;
  const finished = new Set<string>();
  const streamer = async (n: number) => {
    await sleep((n * 50) % 5_000);
    for (let first = true; running(); first = false) {
      // --skip-finished: never on a finished one (100 streams reopening on a done 60-minute
      // transcript, each sent its whole snapshot, stalled the server for minutes before the
      // light answer for finished transcripts).
      const open = SKIP_FINISHED ? holds.filter((h) => !finished.has(h)) : holds;
      if (open.length === 0) {
        await sleep(1_000);
        continue;
      }
      const id = open[n % open.length]!;
      if (!first) streamsReopened++;
      const controller = new AbortController();
      const stop = setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now()));
      const t0 = performance.now();
      let retryMs = DEFAULT_RETRY_MS;
      try {
        const at = web(n);
        const r = await fetch(`${at}/self-api/v1/transcripts/${id}/events`, {
          headers: authFor(at),
          signal: controller.signal,
        });
        record('stream-open', performance.now() - t0, r.status);
        if (r.status !== 200 || !r.body) {
          await sleep(1_000);
          continue;
        }
        streamsOpen++;
        try {
          const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
          for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
            streamEvents++;
            const hint = /^retry: (\d+)$/m.exec(chunk.value);
            if (hint) retryMs = Number(hint[1]);
          }
        } finally {
          streamsOpen--;
        }
        if (SKIP_FINISHED) {
          const now = running() ? await state(id) : undefined;
          if (now && (now.status === 'done' || now.status === 'failed')) finished.add(id);
        }
      } catch (err) {
        if (!controller.signal.aborted)
          record('stream-open', performance.now() - t0, null, (err as Error).message);
      } finally {
        clearTimeout(stop);
      }
      // An EventSource reconnects after the stream's `retry:` hint (else its default).
      if (running()) await sleep(Math.min(retryMs, Math.max(0, deadline - Date.now())));
    }
  };

  // 20 uploads at once, each thrown away when complete (disk stays flat).
  const uploader = async (_: unknown, n: number) => {
    while (running()) await uploadOnce(web(n), uploadBytes, 'load.bin', false);
  };

  // Pages and API calls, open loop at RATE per second.
  const browser = async () => {
    const targets: [Kind, string, boolean][] = [
      ['page', '/', false],
      ['page', '/pricing', false],
      ['page', '/dashboard', true],
      ['api-list', '/self-api/v1/transcripts', true],
      ['api-get', `/self-api/v1/transcripts/${browse[0]}`, true],
    ];
    let i = 0;
    const pending = new Set<Promise<unknown>>();
    while (running()) {
      const [kind, p0, signed] = targets[i % targets.length]!;
      const at = web(Math.floor(i++ / targets.length));
      const p = timed(kind, `${at}${p0}`, { headers: signed ? authFor(at) : {} }).finally(() =>
        pending.delete(p),
      );
      pending.add(p);
      await sleep(1000 / RATE);
    }
    await Promise.all(pending);
  };

  // RSS of every process and the web processes' event-loop delay (the worst of them) every 10 s.
  const samples: { t: number; rssMb: number[]; loopP99Ms: number; loopMaxMs: number; streams: number }[] = [];
  const t0 = Date.now();
  const loopDelay = async (at: string) => {
    const text = await fetch(`${at}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
      .then((r) => r.text())
      .catch(() => '');
    const q = (qt: string) =>
      Number(
        new RegExp(`clipscribe_event_loop_delay_seconds\\{quantile="${qt}"\\} ([0-9.e+-]+)`).exec(text)?.[1] ??
          NaN,
      ) * 1000;
    return { p99: q('0.99'), max: q('1') };
  };
  const sampler = async () => {
    while (running()) {
      await sleep(10_000);
      const loops = await Promise.all(bases.map(loopDelay));
      samples.push({
        t: Math.round((Date.now() - t0) / 1000),
        rssMb: target.procs.map((p) => Math.round(memoryMb(p.pid, 'VmRSS'))),
        loopP99Ms: Math.max(...loops.map((l) => l.p99)),
        loopMaxMs: Math.max(...loops.map((l) => l.max)),
        streams: streamsOpen,
      });
    }
  };

  console.log(
    `Load on the ${target.label}: ${MINUTES} min, ${STREAMS} event streams (${SKIP_FINISHED ? 'never reopened on a finished transcription' : 'reopened like an EventSource, also on a finished transcription'}), ${UPLOADS} uploads at once (${UPLOAD_MB} MB each), ${RATE} pages+API/s, ${TRANSCRIPTIONS} transcriptions of ${HOLD_MINUTES} min of audio (the streams' subjects).`,
  );
  await Promise.all([
    ...Array.from({ length: STREAMS }, (_, n) => streamer(n)),
    ...Array.from({ length: UPLOADS }, uploader),
    browser(),
    sampler(),
  ]);
  const peaks = target.procs.map((p) => `${p.name} ${Math.round(memoryMb(p.pid, 'VmHWM'))} MB`);
  const ends = await Promise.all(holds.map(state));
  await target.stop();

  const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
  console.log('\n| kind | requests | p50 ms | p95 ms | p99 ms |\n| --- | --- | --- | --- | --- |');
  for (const [kind, xs] of times) {
    xs.sort((a, b) => a - b);
    console.log(
      `| ${kind} | ${xs.length} | ${q(xs, 0.5).toFixed(0)} | ${q(xs, 0.95).toFixed(0)} | ${q(xs, 0.99).toFixed(0)} |`,
    );
  }
  console.log(
    `\nRequests ${status.total}: 5xx ${status['5xx']}, 4xx ${status['4xx']}, failed (no answer) ${status.failed}.`,
  );
  if (firstErrors.length) console.log(`First errors: ${firstErrors.join(' · ')}`);
  console.log(
    `Held transcriptions (${HOLD_MINUTES} min of audio each) at the end: ${ends.map((e) => (e ? `${e.status} ${e.progress} %` : '?')).join(', ')}; event-stream chunks received: ${streamEvents}; streams opened again after closing early: ${streamsReopened}.`,
  );
  const names = target.procs.map((p) => p.name);
  console.log(
    `\n| t (s) | RSS MB (${names.join(' / ')}) | event-loop p99 ms | max ms | streams open |\n| --- | --- | --- | --- | --- |`,
  );
  for (const s of samples)
    console.log(
      `| ${s.t} | ${s.rssMb.join(' / ')} | ${s.loopP99Ms.toFixed(1)} | ${s.loopMaxMs.toFixed(1)} | ${s.streams} |`,
    );
  console.log(`\nPeak RSS: ${peaks.join(', ')}. Machine: 2 cores shared with other agents' work.`);
}

await main();
