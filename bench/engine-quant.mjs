// `npm run bench:engine-quant`: what quantized models and flash attention gain with
// @napi-rs/whisper on this machine (not a test; prints figures). Random-weight models with the real
// dimensions (scripts/make-test-model.mjs --quant), the same audio, threads and decoding for every
// row, each run in a child process of its own: load time, compute time, speed (audio seconds per
// compute second) and the child's peak RSS, as the engine's child process would see them.
//   BENCH_PRESETS=base (tiny,base,small)  BENCH_QUANTS=f16,q8_0,q5_1  BENCH_FLASH=off,on
//   BENCH_SECONDS=30 (one window)  BENCH_THREADS=2  BENCH_DIR=<model cache, default $TMPDIR/clipscribe-bench>
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { benchSpeech } from './lib/audio.mjs';

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');
const THREADS = Number(process.env.BENCH_THREADS ?? 2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const list = (name, fallback) => (process.env[name] ?? fallback).split(',').filter(Boolean);

async function worker(model, pcmPath, flash) {
  const { Whisper, WhisperFullParams, WhisperSamplingStrategy } = await import('@napi-rs/whisper');
  const buf = readFileSync(pcmPath);
  const s16 = new Int16Array(buf.buffer, buf.byteOffset, buf.length >> 1);
  const f32 = Float32Array.from(s16, (v) => v / 32768);
  let t = performance.now();
  const whisper = new Whisper(model, { flashAttn: flash });
  const loadMs = performance.now() - t;
  const params = new WhisperFullParams(WhisperSamplingStrategy.Greedy);
  params.nThreads = THREADS;
  params.language = 'en';
  // Random weights fail whisper.cpp's quality checks: temperature 1 is one bounded pass per window.
  params.temperature = 1;
  params.printProgress = false;
  params.printRealtime = false;
  params.printTimestamps = false;
  t = performance.now();
  whisper.full(params, f32);
  const computeMs = performance.now() - t;
  const peak = Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
  process.stdout.write(`\n${JSON.stringify({ loadMs, computeMs, peak })}\n`);
  process.exit(0);
}

async function main() {
  const { makeTestModel } = await import('../scripts/make-test-model.mjs');
  const dir = process.env.BENCH_DIR ?? path.join(os.tmpdir(), 'clipscribe-bench');
  mkdirSync(dir, { recursive: true });
  const { pcm } = benchSpeech(dir, SECONDS);
  console.log(
    `@napi-rs/whisper, ${os.availableParallelism()} cores, ${THREADS} threads, ${SECONDS} s of audio, one pass (t 1.0)`,
  );
  console.log(
    '| model | flash attention | file MB | load s | compute s | audio s per compute s | child peak RSS MB |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const preset of list('BENCH_PRESETS', 'base')) {
    for (const quant of list('BENCH_QUANTS', 'f16,q8_0,q5_1')) {
      const model = path.join(dir, `ggml-random-${preset}${quant === 'f16' ? '' : `-${quant}`}.bin`);
      if (!existsSync(model)) await makeTestModel(model, preset, { quant: quant === 'f16' ? null : quant });
      const mb = (statSync(model).size / 1e6).toFixed(0);
      for (const flash of list('BENCH_FLASH', 'off,on')) {
        const r = spawnSync(process.execPath, [SELF, '--worker', model, pcm, flash], {
          cwd: ROOT,
          encoding: 'utf8',
        });
        const name = `${preset}${quant === 'f16' ? ' (f16)' : `-${quant}`}`;
        try {
          const { loadMs, computeMs, peak } = JSON.parse(r.stdout.trim().split('\n').pop());
          console.log(
            `| ${name} | ${flash} | ${mb} | ${(loadMs / 1000).toFixed(2)} | ${(computeMs / 1000).toFixed(1)} | ${(SECONDS / (computeMs / 1000)).toFixed(2)}× | ${peak.toFixed(0)} |`,
          );
        } catch {
          console.log(
            `| ${name} | ${flash} | ${mb} | – | – | failed: ${(r.stderr ?? '').trim().split('\n').pop()} | – |`,
          );
        }
      }
    }
  }
}

if (process.argv[2] === '--worker') await worker(process.argv[3], process.argv[4], process.argv[5] === 'on');
else await main();
