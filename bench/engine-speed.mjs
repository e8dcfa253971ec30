// `node bench/engine-speed.mjs`: how fast each whisper.cpp binding transcribes on this machine.
// Prints seconds of audio per second of compute for random-weight models with the real tiny and
// base dimensions (scripts/make-test-model.mjs), on the same audio and with the same decoding
// settings (language en, greedy with best of 5, 2 threads; see MODES for the temperatures).
//
// Candidates outside the repo are optional; point at the folder holding their node_modules:
//   BENCH_FUGOOD_DIR=/tmp/fugood            (npm install @fugood/whisper.node@1.1.3)
//   BENCH_SMART_WHISPER_DIR=/tmp/smartw     (smart-whisper@0.8.1, built with node-gyp)
// Other knobs: BENCH_PRESETS=tiny,base  BENCH_MODES=fallback,single  BENCH_SECONDS=60  BENCH_THREADS=2
//              BENCH_DIR=<model and audio cache, default $TMPDIR/clipscribe-bench>
//
// Every run happens in a child process of its own, so a binding that crashes or hangs only
// loses its own row.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchSpeech } from './lib/audio.mjs';

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');
const THREADS = Number(process.env.BENCH_THREADS ?? 2);
const RUN_TIMEOUT_MS = 20 * 60_000;
// Random weights never satisfy whisper.cpp's quality checks, so temperature 0 falls back through
// all six temperatures (0, 0.2 … 1.0), five sampled decoders each above 0: far more decoding than a
// real model does on speech. Temperature 1.0 is a single pass of five decoders: the same, bounded
// work for every binding. Both are measured; neither is a real model on real speech.
const MODES = (process.env.BENCH_MODES ?? 'fallback,single')
  .split(',')
  .map((id) =>
    id === 'single'
      ? { id, label: 'single pass (t 1.0)', temperature: 1 }
      : { id: 'fallback', label: 't 0 + fallback', temperature: 0 },
  );

function readPcm(pcmPath) {
  const buf = readFileSync(pcmPath);
  const samples = new Int16Array(buf.buffer, buf.byteOffset, buf.length >> 1);
  const f32 = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) f32[i] = samples[i] / 32768;
  return { s16: buf, f32 };
}

// --- workers: one binding, one model, one run; the result is one JSON line on stdout ---

async function runNapi(model, pcmPath, temperature) {
  const { Whisper, WhisperFullParams, WhisperSamplingStrategy } = await import('@napi-rs/whisper');
  const { f32 } = readPcm(pcmPath);
  let t = performance.now();
  const whisper = new Whisper(model);
  const loadMs = performance.now() - t;
  const params = new WhisperFullParams(WhisperSamplingStrategy.Greedy);
  params.nThreads = THREADS;
  params.language = 'en';
  params.temperature = temperature;
  params.printProgress = false;
  params.printRealtime = false;
  params.printTimestamps = false;
  t = performance.now();
  const text = whisper.full(params, f32);
  return { loadMs, computeMs: performance.now() - t, chars: text.length };
}

async function runFugood(model, pcmPath, temperature, nProcessors) {
  const dir = process.env.BENCH_FUGOOD_DIR;
  const req = createRequire(path.join(dir, 'package.json'));
  const lib = await import(pathToFileURL(req.resolve('@fugood/whisper.node')).href);
  const initWhisper = lib.initWhisper ?? lib.default.initWhisper;
  const { s16 } = readPcm(pcmPath);
  const data = s16.buffer.slice(s16.byteOffset, s16.byteOffset + (s16.length & ~1));
  let t = performance.now();
  const ctx = await initWhisper({ filePath: model, useGpu: false });
  const loadMs = performance.now() - t;
  t = performance.now();
  const { promise } = ctx.transcribeData(data, {
    language: 'en',
    maxThreads: THREADS,
    nProcessors,
    temperature,
    temperatureInc: 0.2,
    bestOf: 5,
  });
  const res = await promise;
  const computeMs = performance.now() - t;
  await ctx.release();
  return { loadMs, computeMs, chars: res.result.length };
}

async function runSmartWhisper(model, pcmPath, temperature) {
  const dir = process.env.BENCH_SMART_WHISPER_DIR;
  const req = createRequire(path.join(dir, 'package.json'));
  const { Whisper } = req('smart-whisper');
  const { f32 } = readPcm(pcmPath);
  const whisper = new Whisper(model, { gpu: false });
  let t = performance.now();
  await whisper.load();
  const loadMs = performance.now() - t;
  t = performance.now();
  const task = await whisper.transcribe(f32, {
    language: 'en',
    n_threads: THREADS,
    format: 'simple',
    temperature,
    temperature_inc: 0.2,
    best_of: 5,
  });
  const segments = await task.result;
  const computeMs = performance.now() - t;
  await whisper.free();
  return { loadMs, computeMs, chars: segments.map((s) => s.text).join('').length };
}

const CANDIDATES = [
  { id: 'napi', label: '@napi-rs/whisper 0.0.4 (prebuilt)', run: runNapi },
  {
    id: 'fugood',
    label: '@fugood/whisper.node 1.1.3 (prebuilt)',
    needs: 'BENCH_FUGOOD_DIR',
    run: (m, p, t) => runFugood(m, p, t, 1),
  },
  {
    id: 'fugood-np2',
    label: '@fugood/whisper.node 1.1.3, nProcessors 2',
    needs: 'BENCH_FUGOOD_DIR',
    run: (m, p, t) => runFugood(m, p, t, 2),
  },
  {
    id: 'smart',
    label: 'smart-whisper 0.8.1 (node-gyp -march=native)',
    needs: 'BENCH_SMART_WHISPER_DIR',
    run: runSmartWhisper,
  },
];

if (process.argv[2] === '--worker') {
  const [, , , id, model, pcmPath, temperature] = process.argv;
  const candidate = CANDIDATES.find((c) => c.id === id);
  const result = await candidate.run(model, pcmPath, Number(temperature));
  process.stdout.write(`\n${JSON.stringify(result)}\n`);
  // Some bindings keep the event loop alive (thread-safe callbacks); the measurement is done.
  process.exit(0);
}

// --- driver ---

function runWorker(id, model, pcm, temperature) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SELF, '--worker', id, model, pcm, String(temperature)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').pop() ?? '';
      try {
        resolve({ ok: true, ...JSON.parse(last) });
      } catch {
        resolve({
          ok: false,
          error: signal ? `killed by ${signal}` : `exit ${code}: ${err.trim().split('\n').pop()}`,
        });
      }
    });
  });
}

async function main() {
  const { makeTestModel } = await import('../scripts/make-test-model.mjs');
  const presets = (process.env.BENCH_PRESETS ?? 'tiny,base').split(',').filter(Boolean);
  const seconds = Number(process.env.BENCH_SECONDS ?? 60);
  const dir = process.env.BENCH_DIR ?? path.join(os.tmpdir(), 'clipscribe-bench');
  mkdirSync(dir, { recursive: true });

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const flags = (() => {
    try {
      const info =
        readFileSync('/proc/cpuinfo', 'utf8')
          .match(/^flags\s*:(.*)$/m)?.[1]
          .split(/\s+/) ?? [];
      return ['avx', 'avx2', 'fma', 'f16c', 'avx512f'].filter((f) => info.includes(f)).join(' ');
    } catch {
      return '?';
    }
  })();
  const audio = benchSpeech(dir, seconds);
  console.log(`machine: ${cpu}, ${os.availableParallelism()} cores (${flags}), node ${process.version}`);
  console.log(`audio: ${seconds} s of ${audio.kind}; ${THREADS} threads; language en; greedy, best of 5`);

  const rows = [];
  for (const preset of presets) {
    const model = path.join(dir, `ggml-random-${preset}.bin`);
    if (!existsSync(model)) await makeTestModel(model, preset);
    const mb = (statSync(model).size / 1e6).toFixed(1);
    for (const mode of MODES) {
      for (const c of CANDIDATES) {
        const row = { binding: c.label, preset: `${preset} (${mb} MB)`, mode: mode.label };
        if (c.needs && !process.env[c.needs]) {
          rows.push({ ...row, note: `skipped: set ${c.needs}` });
          continue;
        }
        process.stderr.write(`running ${c.label} on ${preset}, ${mode.label}…\n`);
        const r = await runWorker(c.id, model, audio.pcm, mode.temperature);
        if (!r.ok) rows.push({ ...row, note: `failed: ${r.error}` });
        else
          rows.push({
            ...row,
            load: (r.loadMs / 1000).toFixed(2),
            compute: (r.computeMs / 1000).toFixed(1),
            speed: (seconds / (r.computeMs / 1000)).toFixed(2),
          });
      }
    }
  }

  console.log('');
  console.log('| binding | model | decoding | load s | compute s | audio s per compute s |');
  console.log('|---|---|---|---:|---:|---:|');
  for (const r of rows) {
    const head = `| ${r.binding} | ${r.preset} | ${r.mode} |`;
    if (r.note) console.log(`${head} – | – | ${r.note} |`);
    else console.log(`${head} ${r.load} | ${r.compute} | **${r.speed}×** |`);
  }
}

await main();
