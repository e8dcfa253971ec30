// `npm run bench:engines`: what each local model family costs on this machine (not a test; no
// pass/fail). Prints, side by side:
//
// 1. Whisper base through the real engine (whisper.cpp child, a random-weight model of base's real
//    dimensions, temperature 1: one bounded decoding pass) on speech: seconds of audio per second of
//    compute, job start → first segment, the child's peak RSS.
// 2. Parakeet TDT 0.6B and SenseVoice-Small: their encoders at the real width on the real number of
//    frames — `layers` real-width layers (scripts/make-encoder-slices.py, int8) timed in
//    onnxruntime-node and scaled to the real layer count (24 / 50). The encoder is nearly all of
//    their compute; the prediction/joint networks (Parakeet, once per token) and the CTC head
//    (SenseVoice) are left out, so these speeds are upper bounds, and say so.
// 3. The whole pipeline (speech detection, chunks, words, child process) of every family on the
//    stand-in models (server/test/fixtures/sherpa): start → first segment and total, which is the
//    pipeline's own overhead around the model.
//
// Needs python3 with onnx, numpy and onnxruntime (pip) for the encoder slices, espeak-ng, ffmpeg.
// Knobs: BENCH_SECONDS (default 60), BENCH_THREADS (default 2), BENCH_LAYERS (default 2),
//        BENCH_DIR (cache, default $TMPDIR/clipscribe-bench-engines). Run under /tmp/lock.browser.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as ort from 'onnxruntime-node';
import { createSherpaEngine } from '../server/modules/engine/sherpa/engine';
import { SHERPA_FAMILIES, sherpaPaths, type SherpaFamily } from '../server/modules/engine/sherpa/families';
import type { Engine } from '../server/modules/engine/types';
import { createWhisperEngine } from '../server/modules/engine/whisper/engine';
import { SHERPA_FIXTURES } from '../server/test/sherpa-fixtures';
import { testModelPath } from '../server/test/test-model';
import { benchSpeech } from './lib/audio.mjs';

const log = (line = '') => process.stdout.write(`${line}\n`);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const THREADS = Number(process.env.BENCH_THREADS ?? 2);
const LAYERS = Number(process.env.BENCH_LAYERS ?? 2);
const DIR = process.env.BENCH_DIR ?? path.join(os.tmpdir(), 'clipscribe-bench-engines');
const ROOT = path.resolve(import.meta.dirname, '..');
mkdirSync(DIR, { recursive: true });

const vmHwmMb = (pid: number) =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

interface Run {
  speed: number;
  firstSegmentSec: number | null;
  totalSec: number;
  peakMb: number;
  segments: number;
}

/** One transcription through an engine's child: speed, first segment, the child's peak memory. */
async function runEngine(
  make: (onSpawn: (pid: number) => void) => Engine,
  pcm: string,
  language: string,
): Promise<Run> {
  let peak = 0;
  let pid = 0;
  const watch = setInterval(() => {
    try {
      if (pid) peak = Math.max(peak, vmHwmMb(pid));
    } catch {
      // The child has exited.
    }
  }, 50);
  const engine = make((p) => (pid = p));
  const started = performance.now();
  let first: number | null = null;
  try {
    const result = await engine.transcribe(
      { pcmPath: pcm, durationSec: statSync(pcm).size / 32000 },
      { language, detectSpeech: true, onSegment: () => (first ??= (performance.now() - started) / 1000) },
    );
    const totalSec = (performance.now() - started) / 1000;
    const speechSec = (result.speechRegions ?? []).reduce((n, r) => n + r.end - r.start, 0) || SECONDS;
    return {
      speed: speechSec / totalSec,
      firstSegmentSec: first,
      totalSec,
      peakMb: peak,
      segments: result.segments.length,
    };
  } finally {
    clearInterval(watch);
    await engine.close?.();
  }
}

interface EncoderCost {
  secPer30: number;
  speed: number;
  loadSec: number;
  weightsMb: number;
  rssMb: number;
}

/** A real-width encoder slice in onnxruntime-node: the time for 30 s of frames, scaled to all layers. */
async function encoderCost(family: 'parakeet' | 'sensevoice'): Promise<EncoderCost> {
  const spec =
    family === 'parakeet' ? { d: 1024, layers: 24, frameSec: 0.08 } : { d: 512, layers: 50, frameSec: 0.06 };
  const file = path.join(DIR, `${family}-encoder-${LAYERS}-layers.int8.onnx`);
  if (!existsSync(file))
    execFileSync('python3', [path.join(ROOT, 'scripts/make-encoder-slices.py'), DIR, String(LAYERS)], {
      stdio: 'inherit',
    });
  const rssBefore = process.memoryUsage().rss;
  let t = performance.now();
  const session = await ort.InferenceSession.create(file, {
    intraOpNumThreads: THREADS,
    interOpNumThreads: 1,
  });
  const loadSec = (performance.now() - t) / 1000;
  const frames = Math.round(30 / spec.frameSec);
  const x = new ort.Tensor(
    'float32',
    Float32Array.from({ length: frames * spec.d }, () => Math.random() - 0.5),
    [1, frames, spec.d],
  );
  await session.run({ x }); // warm-up
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    await session.run({ x });
    times.push((performance.now() - t) / 1000);
  }
  const rssMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
  await session.release();
  const scale = spec.layers / LAYERS;
  const secPer30 = times.sort((a, b) => a - b)[1]! * scale;
  return {
    secPer30,
    speed: 30 / secPer30,
    loadSec: loadSec * scale,
    weightsMb: (statSync(file).size / 2 ** 20) * scale,
    rssMb: rssMb * scale,
  };
}

const fmt = (x: number | null, digits = 1) => (x === null ? '—' : x.toFixed(digits));

async function main() {
  const { pcm, kind } = benchSpeech(DIR, SECONDS);
  log(
    `bench:engines — ${SECONDS} s of ${kind}, ${THREADS} threads, ${os.cpus()[0]?.model ?? 'cpu'} (${os.availableParallelism()} cores)`,
  );
  log();

  const base = await testModelPath('base', 'words');
  const whisper = await runEngine(
    (onSpawn) =>
      createWhisperEngine({ modelPath: base, modelName: 'base', threads: THREADS, temperature: 1, onSpawn }),
    pcm,
    'en',
  );
  const enc = { parakeet: await encoderCost('parakeet'), sensevoice: await encoderCost('sensevoice') };
  const pipeline: Record<SherpaFamily, Run> = {} as Record<SherpaFamily, Run>;
  for (const family of ['parakeet', 'sense-voice'] as const) {
    const spec = SHERPA_FAMILIES[family];
    pipeline[family] = await runEngine(
      (onSpawn) =>
        createSherpaEngine({
          spec,
          paths: sherpaPaths(spec, path.join(SHERPA_FIXTURES, family)),
          provisioners: [],
          threads: THREADS,
          onSpawn,
        }),
      pcm,
      family === 'parakeet' ? 'en' : 'ja',
    );
  }

  log('1. Whisper base (random weights, real dimensions, one decoding pass) through the engine child');
  log(
    `   ${fmt(whisper.speed)} s of speech per s of compute · first segment ${fmt(whisper.firstSegmentSec)} s after start · ${fmt(whisper.totalSec)} s in all · child peak RSS ${fmt(whisper.peakMb, 0)} MB`,
  );
  log();
  log(`2. Encoders at the real width, ${LAYERS} layers timed and scaled to all of them (30 s of frames)`);
  log(
    '   family        layers  s per 30 s audio  audio s / compute s  vs Whisper base  weights (int8)  load    RSS added',
  );
  for (const [name, layers, c] of [
    ['Parakeet TDT', 24, enc.parakeet],
    ['SenseVoice-S', 50, enc.sensevoice],
  ] as const) {
    log(
      `   ${name.padEnd(13)} ${String(layers).padStart(6)}  ${fmt(c.secPer30, 2).padStart(16)}  ${fmt(c.speed).padStart(19)}  ${(fmt(c.speed / whisper.speed, 2) + '×').padStart(15)}  ${(fmt(c.weightsMb, 0) + ' MB').padStart(14)}  ${(fmt(c.loadSec) + ' s').padStart(6)}  ${(fmt(c.rssMb, 0) + ' MB').padStart(9)}`,
    );
  }
  log('   (encoder only: upper bounds for the speed; the real files are 622 MB and 228 MB)');
  log();
  log('3. The whole pipeline on the stand-in models (its own overhead around the model)');
  for (const family of ['parakeet', 'sense-voice'] as const) {
    const r = pipeline[family];
    log(
      `   ${family.padEnd(12)} first segment ${fmt(r.firstSegmentSec)} s · ${fmt(r.totalSec)} s in all · child peak RSS ${fmt(r.peakMb, 0)} MB · ${r.segments} segments`,
    );
  }
  log();
  // Job start → first segment with real weights ≈ pipeline overhead + model load + the first
  // chunk's (10 s) encoder time.
  for (const [family, c] of [
    ['parakeet', enc.parakeet],
    ['sense-voice', enc.sensevoice],
  ] as const) {
    const r = pipeline[family];
    const estimate = (r.firstSegmentSec ?? 0) + c.loadSec + c.secPer30 / 3;
    log(
      `   estimated first segment with real weights, ${family}: ${fmt(estimate)} s (overhead + load + 10 s chunk)`,
    );
  }
}

await main();
