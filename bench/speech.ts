// `npm run bench:speech`: figures for speech detection, word timings and the first segment (not a
// test; no pass/fail). The machine is shared and noisy, so every comparison is a ratio of runs made
// side by side in this one process, on the same audio, model and threads.
//   (a) a BENCH_MINUTES (10) minute file, half espeak-ng speech and half silence / noise / music,
//       random weights with the real base dimensions, 2 threads: engine compute with speech
//       detection vs without (target ≤ 0.6×); speech frames kept (≥ 99 %) and non-speech dropped;
//   (b) word mode vs segment mode, both with speech detection (target ≤ 1.1×);
//   (c) job start → first segment on the event stream, through the app (target ≤ 10 s);
//   (d) speech detection throughput, seconds of audio per second, per shipped weight file (≥ 200×).
// BENCH_PRESET (base|tiny, default base), BENCH_TEMPERATURE (default 1: one decoding pass per
// window; random weights make whisper.cpp's fallback unbounded). Ratios (a) and (b) compare the
// engine children's CPU seconds (BENCH_CLOCK=wall compares wall-clock time instead).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createWhisperEngine } from '../server/modules/engine/whisper/engine';
import { rawSpeech, speechRegions } from '../server/modules/engine/speech/regions';
import { detectSpeech, VAD_MODELS, type VadModel } from '../server/modules/engine/speech/vad';
import { testApp } from '../server/test/harness';
import { makeSpeechFixture, pcmToMedia } from '../server/test/speech';
import { testModelPath } from '../server/test/test-model';
import { tusUpload } from '../server/test/tus';
import { signedInUser } from '../server/test/users';

const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const PRESET = (process.env.BENCH_PRESET ?? 'base') as 'base' | 'tiny';
const TEMPERATURE = Number(process.env.BENCH_TEMPERATURE ?? 1);
const THREADS = 2;
const only = process.env.BENCH_ONLY?.split(',');
const want = (k: string) => !only || only.includes(k);

const work = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-speech-'));
const log = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (x: number, d = 2) => x.toFixed(d);

try {
  log(`machine: ${os.cpus()[0]?.model ?? '?'} × ${os.availableParallelism()}, node ${process.version}`);
  log(
    `load average at start: ${os
      .loadavg()
      .map((l) => fmt(l, 1))
      .join(' ')}`,
  );
  const fixture = makeSpeechFixture(work, {
    until: MINUTES * 60,
    gapSec: 5.2,
    gaps: ['silence', 'noise', 'music'],
  });
  const speechSec = fixture.speech.reduce((n, s) => n + s.end - s.start, 0);
  log(
    `audio: ${fmt(fixture.durationSec / 60, 1)} min, ${fixture.speech.length} phrases, ` +
      `${fmt((speechSec / fixture.durationSec) * 100, 1)} % speech (espeak-ng), the rest silence, noise and a chord`,
  );
  const model = await testModelPath(PRESET, 'words');

  // (d) first: it also gives the regions for the frame shares of (a).
  if (want('d') || want('a')) {
    log('\n(d) speech detection throughput (decoded PCM, one thread)');
    let best: Awaited<ReturnType<typeof detectSpeech>> | null = null;
    for (const key of Object.keys(VAD_MODELS) as VadModel[]) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const vad = await detectSpeech(fixture.pcmPath, { model: key });
      const sec = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(c0);
      const cpuSec = (cpu.user + cpu.system) / 1e6;
      // On a busy machine the wall clock measures the other processes too; CPU seconds do not.
      log(
        `  ${key.padEnd(5)} ${VAD_MODELS[key].padEnd(28)} ${fmt(fixture.durationSec / sec, 0)}× real time (${fmt(sec)} s wall), ` +
          `${fmt(fixture.durationSec / cpuSec, 0)}× per CPU second`,
      );
      if (key === 'op18') best = vad;
    }
    const regions = speechRegions(best!.probs, best!.frameSec, best!.durationSec);
    const raw = rawSpeech(best!.probs, best!.frameSec);
    // Frame shares at 10 ms: truth speech inside the transcribed regions, and non-speech outside them.
    const step = 0.01;
    let speechFrames = 0;
    let speechKept = 0;
    let otherFrames = 0;
    let otherDropped = 0;
    for (let t = 0; t < fixture.durationSec; t += step) {
      const isSpeech = fixture.speech.some((s) => t >= s.start && t < s.end);
      const kept = regions.some((r) => t >= r.start && t < r.end);
      if (isSpeech) {
        speechFrames++;
        if (kept) speechKept++;
      } else {
        otherFrames++;
        if (!kept) otherDropped++;
      }
    }
    const keptSec = regions.reduce((n, r) => n + r.end - r.start, 0);
    log(
      `  regions: ${raw.length} raw stretches → ${regions.length} regions, ${fmt(keptSec, 0)} s of ${fmt(fixture.durationSec, 0)} s ` +
        `(${fmt((keptSec / fixture.durationSec) * 100, 1)} %) given to the engine`,
    );
    log(`  speech frames kept: ${fmt((speechKept / speechFrames) * 100, 2)} % (target ≥ 99 %)`);
    log(`  non-speech frames dropped: ${fmt((otherDropped / otherFrames) * 100, 1)} %`);
  }

  // CPU seconds of this process's finished children (the engine runs one child per job): unlike
  // the wall clock, it does not count the time other processes on a busy machine took.
  const childCpuSec = (): number => {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After 'pid (comm) ' the fields start at 'state' (3rd): cutime is the 16th, cstime the 17th.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  };

  const run = async (label: string, detect: boolean, words: boolean) => {
    const engine = createWhisperEngine({
      modelPath: model,
      threads: THREADS,
      temperature: TEMPERATURE,
      words,
    });
    const t0 = performance.now();
    const cpu0 = childCpuSec();
    const result = await engine.transcribe(
      { pcmPath: fixture.pcmPath, durationSec: fixture.durationSec },
      { language: 'en', detectSpeech: detect },
    );
    const sec = (performance.now() - t0) / 1000;
    await engine.close?.();
    await new Promise((r) => setTimeout(r, 300));
    const cpu = childCpuSec() - cpu0;
    const wordCount = result.segments.reduce((n, s) => n + (s.words?.length ?? 0), 0);
    log(
      `  ${label.padEnd(34)} ${fmt(sec, 1).padStart(7)} s wall, ${fmt(cpu, 1).padStart(7)} CPU s  ` +
        `${result.segments.length} segments, ${wordCount} words`,
    );
    return process.env.BENCH_CLOCK === 'wall' ? sec : cpu;
  };

  if (want('a') || want('b')) {
    log(
      `\n(a)/(b) engine compute, ${PRESET} dimensions (random weights), ${THREADS} threads, temperature ${TEMPERATURE}`,
    );
    const words = await run('speech detection + words', true, true);
    const segments = want('b') ? await run('speech detection + segments', true, false) : null;
    const all = want('a') ? await run('no detection + words (everything)', false, true) : null;
    if (all !== null) log(`  (a) with / without speech detection: ${fmt(words / all, 3)}× (target ≤ 0.6×)`);
    if (segments !== null)
      log(`  (b) word mode / segment mode: ${fmt(words / segments, 3)}× (target ≤ 1.1×)`);
  }

  if (want('c')) {
    log(
      `\n(c) job start → first segment on the event stream (app, ${PRESET} dimensions, ${THREADS} threads)`,
    );
    const dataDir = path.join(work, 'data');
    const h = await testApp(
      {},
      {
        DATA_DIR: dataDir,
        WHISPER_MODEL: model,
        WHISPER_THREADS: String(THREADS),
        WHISPER_TEMPERATURE: String(TEMPERATURE),
      },
      { worker: true },
    );
    try {
      const u = await signedInUser(h.db);
      const media = pcmToMedia(fixture.pcmPath, path.join(work, 'talk.mp3'));
      const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
      const { id } = await tusUpload(fetcher, u.headers, readFileSync(media), 'talk.mp3');
      const created = await h.app.request('/self-api/v1/transcripts', {
        method: 'POST',
        headers: { ...u.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ upload_id: id, language: 'en' }),
      });
      const posted = performance.now();
      const tid = ((await created.json()) as { data: { id: string } }).data.id;
      const res = await h.app.request(`/self-api/v1/transcripts/${tid}/events`, { headers: u.headers });
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let started: number | null = null;
      let buffer = '';
      const stages: string[] = [];
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        const events = buffer.split('\n\n');
        buffer = events.pop()!;
        const first = events.find((e) => {
          const kind = /event: (\w+)/.exec(e)?.[1];
          const data = /data: (.*)/.exec(e)?.[1] ?? '{}';
          if (kind === 'status') {
            const s = JSON.parse(data) as { status: string; stage?: string };
            if (s.status === 'processing' && started === null) started = performance.now();
            if (s.stage && stages.at(-1) !== s.stage) stages.push(s.stage);
          }
          return kind === 'segment';
        });
        if (first) {
          const now = performance.now();
          log(`  stages seen: ${stages.join(' → ')}`);
          log(`  job start → first segment: ${fmt((now - (started ?? posted)) / 1000)} s (target ≤ 10 s)`);
          log(`  create call → first segment: ${fmt((now - posted) / 1000)} s`);
          break;
        }
      }
      await reader.cancel();
      await h.app.request(`/self-api/v1/transcripts/${tid}/cancel`, { method: 'POST', headers: u.headers });
    } finally {
      await h.close();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
