// npm run bench:faults — the fault matrix of the embedded default (issue #30, decision 0034).
// Starts the product as users run it (`node scripts/start.mjs`: the compiled server, PGlite and
// the job runner in one process), puts real work in flight (a tus upload, a transcription,
// segment edits, a first start) and injects a fault: kill -9, SIGTERM, a full disk, a truncated
// model, the engine child killed or hung. After each: the upload completes on resume or is
// refused, the job ends done or failed-with-reason within a bound, no process outlives the
// killed server, `admin check` is clean (usage charged once, no orphan file or row), and the
// webhook of a finished transcript came at least once, always with the same id.
//
//   npm run bench:faults [-- --only kill-transcription,disk-full]   (run under flock /tmp/lock.bench)
//
// The disk-full row mounts a 160 MB tmpfs (Linux, root); it is skipped otherwise.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { makeMedia } from '../server/test/media';
import {
  alive,
  api,
  cmdline,
  createTranscript,
  descendants,
  doubled,
  engineBelow,
  hookReceiver,
  modelMirror,
  onlyArg,
  runRows,
  report,
  transcript,
  tusCreate,
  tusOffset,
  tusSend,
  until,
  upload,
  waitEnded,
  type Hooks,
  type Scenario as AnyScenario,
  type Session,
} from './lib/faults-kit';
// @ts-expect-error plain ESM helpers shared by the web benches
import { freePort, signIn, sleep } from './lib/server.mjs';

const ROOT = path.resolve(process.env.FAULTS_DIR ?? 'tmp/bench-faults');
const only = onlyArg();

interface App {
  base: string;
  proc: ChildProcess;
  log: string;
  dataDir: string;
}

let mirror: Awaited<ReturnType<typeof modelMirror>>;
let hooks: Hooks;

function envFor(dataDir: string, port: number, extra: Record<string, string> = {}) {
  return {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'info',
    WHISPER_MODEL_NAME: 'base',
    WHISPER_MODEL_BASE_URL: mirror.url,
    WHISPER_MODEL_SHA1: mirror.sha1,
    WHISPER_THREADS: '1',
    WHISPER_WATCHDOG_MS: '20000',
    ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '2,5,10',
    TMPDIR: path.join(ROOT, 'tmp'),
    ...extra,
  };
}

async function start(
  dataDir: string,
  opts: { port?: number; wait?: 'healthz' | 'ready' | 'none' } = {},
): Promise<App> {
  const port = opts.port ?? (await freePort());
  mkdirSync(path.join(ROOT, 'logs'), { recursive: true });
  const log = path.join(ROOT, 'logs', `${path.basename(dataDir)}-${Date.now()}.log`);
  const out = openSync(log, 'a');
  const proc = spawn(process.execPath, ['scripts/start.mjs'], {
    env: envFor(dataDir, port),
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const app = { base: `http://127.0.0.1:${port}`, proc, log, dataDir };
  if (opts.wait === 'none') return app;
  await until(`the server on ${dataDir} to answer (log ${log})`, 180_000, async () => {
    if (proc.exitCode !== null) throw new Error(`the server exited with ${proc.exitCode}; log ${log}`);
    const r = await fetch(`${app.base}/${opts.wait === 'ready' ? 'readyz' : 'healthz'}`).catch(() => null);
    return r?.ok;
  });
  return app;
}

/** Stops with `signal` and says whether every process below it ended within 10 s. */
async function stop(app: App, signal: NodeJS.Signals = 'SIGTERM') {
  const family = descendants(app.proc.pid!);
  const exited =
    app.proc.exitCode !== null ? Promise.resolve() : new Promise((r) => app.proc.once('exit', r));
  app.proc.kill(signal);
  await exited;
  const deadline = Date.now() + 10_000;
  while (family.some(alive) && Date.now() < deadline) await sleep(100);
  return family.filter(alive).map((p) => `${p} ${cmdline(p).slice(0, 60)}`);
}

function adminCheck(dataDir: string): { clean: boolean; out: string } {
  const r = spawnSync(process.execPath, ['scripts/start.mjs', 'admin', 'check'], {
    env: envFor(dataDir, 0, { LOG_LEVEL: 'warn' }),
    encoding: 'utf8',
  });
  return { clean: r.status === 0, out: `${r.stdout}${r.stderr}`.trim() };
}

function scratchLeft(): string[] {
  const dir = path.join(ROOT, 'tmp');
  return existsSync(dir)
    ? readdirSync(dir).filter((n) => n.startsWith('clipscribe-scratch-') || n.startsWith('clipscribe-job-'))
    : [];
}

// ---------- the rows ----------

interface Ctx {
  dataDir: string;
  session: Session;
  longWav: string;
  shortWav: string;
  app: App;
}

async function afterFault(ctx: Ctx, note: { leftover: string[] }) {
  const lost: string[] = [];
  const scratchBefore = scratchLeft();
  // Stopped cleanly to run the operator's check (the embedded database is one process's).
  const left = await stop(ctx.app);
  note.leftover.push(...left);
  const check = adminCheck(ctx.dataDir);
  if (!check.clean) lost.push(`admin check: ${check.out.split('\n').slice(-1)[0]}`);
  const leftScratch = scratchLeft();
  ctx.app = await start(ctx.dataDir, { wait: 'ready' });
  return { check, lost, scratch: leftScratch.length ? leftScratch : [], scratchBefore };
}

type Scenario = AnyScenario<Ctx>;

function killDuringUpload(signal: NodeJS.Signals): Scenario {
  return async (ctx) => {
    const bytes = readFileSync(ctx.shortWav);
    const id = await tusCreate(ctx.app, ctx.session, bytes.length, 'upload.wav');
    let acked = 0;
    const sending = tusSend(ctx.app, ctx.session, id, bytes, 0, {
      chunk: 256 << 10,
      pauseMs: 60,
      onAck: (o) => (acked = o),
    });
    await until('40 % of the upload', 60_000, () => acked >= bytes.length * 0.4, 20);
    const leftover = await stop(ctx.app, signal);
    await sending;
    ctx.app = await start(ctx.dataDir, { wait: 'ready' });
    const offset = await tusOffset(ctx.app, ctx.session, id);
    if (offset === null) {
      return {
        fault: `${signal} web during tus upload`,
        inFlight: `upload ${acked}/${bytes.length} B acknowledged`,
        outcome: 'upload gone after restart (HEAD 404): client must start again',
        lost: `${acked} B acknowledged`,
        duplicates: '0',
        ok: false,
      };
    }
    const rest = await tusSend(ctx.app, ctx.session, id, bytes, offset, { chunk: 1 << 20, pauseMs: 0 });
    const tid = await createTranscript(ctx.app, ctx.session, id);
    const ended = await waitEnded(ctx.app, ctx.session, tid);
    const post = await afterFault(ctx, { leftover });
    const okUpload = rest.status === 204 && offset <= bytes.length;
    return {
      fault: `${signal === 'SIGKILL' ? 'kill -9' : signal} web during tus upload`,
      inFlight: `upload, ${Math.round((acked / bytes.length) * 100)} % acknowledged`,
      outcome: `resumed at ${Math.round((offset / bytes.length) * 100)} %, completed; transcript ${ended.status} in ${ended.seconds} s${leftover.length ? `; children left: ${leftover.join(', ')}` : ''}`,
      lost: offset >= acked ? '0' : `${acked - offset} B acknowledged then lost`,
      duplicates: String(doubled(ended.segments)),
      ok: okUpload && ended.status === 'done' && offset >= acked && post.check.clean && leftover.length === 0,
    };
  };
}

function killDuringTranscription(signal: NodeJS.Signals): Scenario {
  return async (ctx) => {
    const uploadId = await upload(ctx.app, ctx.session, ctx.longWav, 'long.wav');
    const tid = await createTranscript(ctx.app, ctx.session, uploadId);
    const engine = await until('the engine child', 180_000, () => engineBelow(ctx.app.proc.pid!));
    await until(
      'some progress',
      120_000,
      async () => ((await transcript(ctx.app, ctx.session, tid))?.progress ?? 0) > 5,
      500,
    );
    const before = await transcript(ctx.app, ctx.session, tid);
    const leftover = await stop(ctx.app, signal);
    const engineLeft = alive(engine);
    ctx.app = await start(ctx.dataDir, { wait: 'ready' });
    const ended = await waitEnded(ctx.app, ctx.session, tid);
    await sleep(3_000);
    const hook = hooks.deliveries('transcript.completed', tid);
    const post = await afterFault(ctx, { leftover });
    return {
      fault: `${signal === 'SIGKILL' ? 'kill -9' : signal} web during transcription`,
      inFlight: `10 min of audio at ${before?.progress ?? '?'} %`,
      outcome: `${ended.status}${ended.error_code ? ` (${ended.error_code})` : ''} ${ended.seconds} s after restart; engine child ${engineLeft ? 'LEFT RUNNING' : 'ended'}; webhook ×${hook.count} (${hook.ids} id)${post.scratch.length ? `; scratch left: ${post.scratch.join(',')}` : ''}`,
      lost: post.lost.length ? post.lost.join('; ') : '0',
      duplicates: `${doubled(ended.segments)} segments; ${hook.ids > 1 ? `${hook.ids} webhook ids` : '0 webhook ids'}`,
      ok:
        ended.status === 'done' &&
        !engineLeft &&
        leftover.length === 0 &&
        post.check.clean &&
        hook.count >= 1 &&
        hook.ids === 1 &&
        doubled(ended.segments) === 0,
    };
  };
}

function killDuringEdits(signal: NodeJS.Signals): Scenario {
  return async (ctx) => {
    const uploadId = await upload(ctx.app, ctx.session, ctx.shortWav, 'edits.wav');
    const tid = await createTranscript(ctx.app, ctx.session, uploadId);
    let done = await waitEnded(ctx.app, ctx.session, tid);
    if (done.segments.length === 0) {
      // A tone has no speech: give it three segments to edit, as a person typing them would.
      const three = [0, 1, 2].map((i) => ({ start: i * 5, end: i * 5 + 4, text: `line ${i}` }));
      const r = await api(ctx.app, ctx.session, 'PATCH', `/transcripts/${tid}/segments`, {
        op: 'replace',
        segments: three,
      });
      if (r.status !== 200) throw new Error(`replace ${r.status} ${r.text}`);
      done = { ...done, segments: three };
    }
    let acked = 0;
    let sent = 0;
    let stopping = false;
    const editing = (async () => {
      while (!stopping) {
        const n = sent + 1;
        sent = n;
        const r = await api(ctx.app, ctx.session, 'PATCH', `/transcripts/${tid}/segments`, {
          op: 'text',
          index: 0,
          text: `edit number ${n}`,
        }).catch(() => null);
        if (r?.status === 200) acked = n;
        else if (!r) break;
      }
    })();
    await until('20 edits', 60_000, () => acked >= 20, 10);
    const leftover = await stop(ctx.app, signal);
    stopping = true;
    await editing;
    ctx.app = await start(ctx.dataDir, { wait: 'ready' });
    const after = await transcript(ctx.app, ctx.session, tid);
    const m = /edit number (\d+)/.exec(after?.segments[0]?.text ?? '');
    const kept = m ? Number(m[1]) : 0;
    const post = await afterFault(ctx, { leftover });
    return {
      fault: `${signal === 'SIGKILL' ? 'kill -9' : signal} web during segment edits`,
      inFlight: `edits saved one after another (${acked} acknowledged, #${sent} in flight)`,
      outcome: `transcript readable; it holds edit #${kept}${leftover.length ? `; children left: ${leftover.join(', ')}` : ''}`,
      lost: kept >= acked ? '0' : `edits #${kept + 1}–#${acked} acknowledged then lost`,
      duplicates: `${after ? after.segments.length - done.segments.length : '?'} segments added`,
      ok:
        kept >= acked && kept <= sent && post.check.clean && after?.segments.length === done.segments.length,
    };
  };
}

function killDuringFirstStart(signal: NodeJS.Signals): Scenario {
  return async () => {
    const outcomes: string[] = [];
    let ok = true;
    for (let i = 0; i < 3; i++) {
      const dir = path.join(ROOT, `first-${signal}-${i}`);
      rmSync(dir, { recursive: true, force: true });
      const app = await start(dir, { wait: 'none' });
      // Killed while the database is being made (its set-up child at work).
      await until(
        'the first start to begin making the database',
        120_000,
        () => existsSync(dir) && readdirSync(dir).some((n) => n.startsWith('pglite.init-')),
        20,
      );
      await sleep(300 + i * 700);
      const leftover = await stop(app, signal);
      const again = await start(dir, { wait: 'ready' });
      const s = { headers: { cookie: await signIn(again.base, dir) } };
      const list = await api(again, s, 'GET', '/transcripts');
      await stop(again);
      const check = adminCheck(dir);
      const fine = list.status === 200 && leftover.length === 0 && check.clean;
      ok &&= fine;
      outcomes.push(fine ? 'ok' : `FAIL (${list.status}, left ${leftover.join(',')}, check ${check.clean})`);
    }
    return {
      fault: `${signal === 'SIGKILL' ? 'kill -9' : signal} web during first start (×3)`,
      inFlight: 'initdb + migrations (set-up child)',
      outcome: `restart makes a working database: ${outcomes.join(', ')}`,
      lost: '0 (nothing stored yet)',
      duplicates: '0',
      ok,
    };
  };
}

const diskFull: Scenario = async (ctx) => {
  const dir = path.join(ROOT, 'small-disk');
  mkdirSync(dir, { recursive: true });
  spawnSync('umount', [dir]);
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', dir], { encoding: 'utf8' });
  if (mount.status !== 0)
    return {
      fault: 'disk full',
      inFlight: '-',
      outcome: `skipped: cannot mount a tmpfs (${mount.stderr.trim()})`,
      lost: '-',
      duplicates: '-',
      ok: true,
    };
  try {
    const app = await start(dir, { wait: 'ready' });
    const s = { headers: { cookie: await signIn(app.base, dir) } };
    const before = await createTranscript(app, s, await upload(app, s, ctx.shortWav, 'before.wav'));
    await waitEnded(app, s, before);
    // Fill the disk but for a few hundred kB.
    const filler = path.join(dir, 'filler');
    const fd = openSync(filler, 'w');
    const block = Buffer.alloc(1 << 20);
    try {
      for (;;) writeFileSync(fd, block);
    } catch {
      /* full */
    }
    closeSync(fd);
    truncateSync(filler, Math.max(0, statSync(filler).size - (384 << 10)));
    const bytes = readFileSync(ctx.shortWav);
    const id = await tusCreate(app, s, bytes.length, 'full.wav').catch((e: Error) => e.message);
    const sent =
      typeof id === 'string' && !id.startsWith('tus')
        ? await tusSend(app, s, id, bytes, 0, { chunk: 1 << 20, pauseMs: 0 })
        : null;
    const rename = await api(app, s, 'PATCH', `/transcripts/${before}`, { name: 'Renamed on a full disk' });
    const refused = `upload ${sent ? sent.status : id}, rename ${rename.status}`;
    const health = await fetch(`${app.base}/healthz`);
    rmSync(filler);
    // Space is back: the same upload resumes, a new transcript runs.
    let resumed = 'not tried';
    if (typeof id === 'string' && sent) {
      const offset = (await tusOffset(app, s, id)) ?? -1;
      const rest =
        offset >= 0
          ? await tusSend(app, s, id, bytes, offset, { chunk: 1 << 20, pauseMs: 0 })
          : { status: 404 };
      resumed = rest.status === 204 ? `upload resumed from ${offset} B` : `resume ${rest.status}`;
    }
    const after = await createTranscript(app, s, await upload(app, s, ctx.shortWav, 'after.wav'));
    const ended = await waitEnded(app, s, after);
    const old = await transcript(app, s, before);
    const leftover = await stop(app);
    const check = adminCheck(dir);
    const cleanRefusal = (sent?.status === 507 || sent?.status === 503) && rename.status !== 500;
    return {
      fault: 'disk full (160 MB tmpfs DATA_DIR)',
      inFlight: 'an upload and a rename while < 400 kB free',
      outcome: `answers: ${refused} (healthz ${health.status}); space back: ${resumed}; new transcript ${ended.status}; earlier one ${old?.status}`,
      lost: check.clean && old?.status === 'done' ? '0' : `check: ${check.out.split('\n').slice(-1)[0]}`,
      duplicates: '0',
      ok: cleanRefusal && ended.status === 'done' && check.clean && leftover.length === 0,
    };
  } finally {
    spawnSync('umount', ['-l', dir]);
  }
};

const truncatedModel: Scenario = async (ctx) => {
  await stop(ctx.app);
  const model = path.join(ctx.dataDir, 'models', 'ggml-base.bin');
  const size = statSync(model).size;
  truncateSync(model, Math.floor(size / 2));
  ctx.app = await start(ctx.dataDir, { wait: 'ready' });
  const tid = await createTranscript(
    ctx.app,
    ctx.session,
    await upload(ctx.app, ctx.session, ctx.shortWav, 'model.wav'),
  );
  const ended = await waitEnded(ctx.app, ctx.session, tid);
  const fixed = statSync(model).size === size;
  const damaged = readdirSync(path.dirname(model)).filter((n) => n.includes('damaged'));
  const post = await afterFault(ctx, { leftover: [] });
  return {
    fault: 'truncated model file (half its size)',
    inFlight: 'a server start, then a transcription',
    outcome: `model ${fixed ? 'fetched again at start' : 'NOT repaired'} (${damaged.length} set aside); transcript ${ended.status}`,
    lost: post.lost.length ? post.lost.join('; ') : '0',
    duplicates: '0',
    ok: fixed && ended.status === 'done' && post.check.clean,
  };
};

function engineChild(kind: 'killed' | 'hung'): Scenario {
  return async (ctx) => {
    const tid = await createTranscript(
      ctx.app,
      ctx.session,
      await upload(ctx.app, ctx.session, ctx.longWav, 'engine.wav'),
    );
    const engine = await until('the engine child', 180_000, () => engineBelow(ctx.app.proc.pid!));
    await sleep(3_000);
    process.kill(engine, kind === 'killed' ? 'SIGKILL' : 'SIGSTOP');
    const ended = await waitEnded(ctx.app, ctx.session, tid);
    const stillThere = alive(engine);
    if (stillThere) process.kill(engine, 'SIGKILL');
    // How many times the job started (the log's "job started" lines for this transcript).
    const runs = readFileSync(ctx.app.log, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"job started"') && l.includes(tid)).length;
    const post = await afterFault(ctx, { leftover: [] });
    return {
      fault: `engine child ${kind === 'killed' ? 'killed (kill -9)' : 'hung (SIGSTOP; watchdog 20 s)'}`,
      inFlight: 'a transcription of 10 min of audio',
      outcome: `${ended.status}${ended.error_code ? ` (${ended.error_code})` : ''} after ${ended.seconds} s, ${runs} run(s) of the job${stillThere ? '; the hung child was left' : '; the child was killed'}`,
      lost: post.lost.length ? post.lost.join('; ') : '0',
      duplicates: `${doubled(ended.segments)} segments`,
      ok:
        (ended.status === 'done' || !!ended.error_code) &&
        !stillThere &&
        post.check.clean &&
        doubled(ended.segments) === 0,
    };
  };
}

const SCENARIOS: [string, Scenario][] = [
  ['kill-upload', killDuringUpload('SIGKILL')],
  ['term-upload', killDuringUpload('SIGTERM')],
  ['kill-transcription', killDuringTranscription('SIGKILL')],
  ['term-transcription', killDuringTranscription('SIGTERM')],
  ['kill-edits', killDuringEdits('SIGKILL')],
  ['term-edits', killDuringEdits('SIGTERM')],
  ['kill-first-start', killDuringFirstStart('SIGKILL')],
  ['term-first-start', killDuringFirstStart('SIGTERM')],
  ['disk-full', diskFull],
  ['truncated-model', truncatedModel],
  ['engine-killed', engineChild('killed')],
  ['engine-hung', engineChild('hung')],
];

// ---------- the run ----------

async function main() {
  if (process.argv.includes('--distributed')) {
    await (await import('./faults-distributed')).main();
    return;
  }
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(path.join(ROOT, 'tmp'), { recursive: true });
  // A local mirror serves the model, so a damaged copy can be fetched again without the internet.
  mirror = await modelMirror();
  hooks = await hookReceiver();

  const media = path.join(ROOT, 'media');
  const ctx: Ctx = {
    dataDir: path.join(ROOT, 'data'),
    session: { headers: {} },
    longWav: makeMedia(media, 'wav', 600),
    shortWav: makeMedia(media, 'wav', 30),
    app: null as never,
  };
  console.log('Starting the product (node scripts/start.mjs builds what is missing first)…');
  ctx.app = await start(ctx.dataDir, { wait: 'ready' });
  ctx.session = { headers: { cookie: await signIn(ctx.app.base, ctx.dataDir) } };
  // The operator grants the bench account the top plan, so no plan limit (minutes, jobs at once,
  // webhooks) answers instead of the fault under test.
  await stop(ctx.app);
  grantEnterprise(ctx.dataDir);
  ctx.app = await start(ctx.dataDir, { wait: 'ready' });
  const hook = await api(ctx.app, ctx.session, 'POST', '/webhooks', { url: hooks.url });
  if (hook.status !== 200)
    throw new Error(`webhook endpoint not made: ${hook.status} ${hook.text.slice(0, 200)}`);

  const rows = await runRows(SCENARIOS, ctx, only, async (c) => {
    // Whatever state it left: a server for the next row.
    if (c.app?.proc.exitCode !== null) c.app = await start(c.dataDir, { wait: 'ready' });
  });
  if (ctx.app?.proc.exitCode === null) await stop(ctx.app);
  mirror.server.close();
  hooks.server.close();
  report(rows, 'embedded default', path.join(ROOT, 'matrix.md'));
}

function grantEnterprise(dataDir: string) {
  const r = spawnSync(
    process.execPath,
    ['scripts/start.mjs', 'admin', 'grant-rank', 'bench@example.test', 'Enterprise'],
    { env: envFor(dataDir, 0, { LOG_LEVEL: 'warn' }), encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`grant-rank: ${r.stdout}${r.stderr}`);
}

await main();
