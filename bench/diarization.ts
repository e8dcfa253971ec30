// `npm run bench:diarization -- <audio or video file>`: what "Identify speakers" costs (not a
// test; no pass/fail). Transcribes the file twice side by side in this process with the configured
// Whisper model and threads — without, then with speaker diarization — and prints both wall-clock
// times, their ratio (the target: ≤ 2× with the base model, decision 0020) and the speakers found.
// Needs the real models: the Whisper model (WHISPER_MODEL or DATA_DIR/models/ggml-base.bin) and
// the two diarization files (npm run model:download -- diarization). Without them it says so and
// exits 2: on a machine without internet no figure can be produced (docs/decisions/0020).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { checkDiarizationModels } from '../server/modules/speakers/diarization/diarize';
import { diarizationPaths } from '../server/modules/speakers/diarization/models';
import { createWhisperEngine, resolveModelPath } from '../server/modules/engine/whisper/engine';
import { decodeToPcm } from './lib/audio.mjs';

const log = (line: string) => process.stdout.write(`${line}\n`);
const input = process.argv[2];
const env = {
  DATA_DIR: path.resolve(process.env.DATA_DIR || 'data'),
  WHISPER_MODEL: process.env.WHISPER_MODEL,
  WHISPER_MODEL_NAME: process.env.WHISPER_MODEL_NAME,
  DIARIZATION_MODEL_DIR: process.env.DIARIZATION_MODEL_DIR,
};
const whisper = resolveModelPath(env);
const paths = diarizationPaths(env);
const threads = Number(process.env.WHISPER_THREADS ?? os.availableParallelism());

if (!input) {
  log('usage: npm run bench:diarization -- <audio or video file>');
  process.exit(2);
}
const missing = [
  ...(statSync(whisper.path, { throwIfNoEntry: false }) ? [] : [`Whisper model ${whisper.path}`]),
  ...(() => {
    const check = checkDiarizationModels(paths);
    return check.ok ? [] : [check.reason];
  })(),
];
if (missing.length > 0) {
  log(`cannot measure: ${missing.join('; ')}.`);
  log('fetch them with: npm run model:download -- base && npm run model:download -- diarization');
  process.exit(2);
}

const work = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-diarization-'));
try {
  const pcm = path.join(work, 'audio.pcm');
  decodeToPcm(input, pcm);
  const durationSec = statSync(pcm).size / 32000;
  log(
    `machine: ${os.cpus()[0]?.model ?? '?'} × ${os.availableParallelism()}, ${threads} threads, node ${process.version}`,
  );
  log(`audio: ${durationSec.toFixed(1)} s; model ${whisper.name}`);
  const engine = createWhisperEngine({
    modelPath: whisper.path,
    modelName: whisper.name,
    threads,
    diarization: { paths, provisioners: [] },
  });
  const run = async (speakers: boolean) => {
    const t0 = performance.now();
    const result = await engine.transcribe(
      { pcmPath: pcm, durationSec },
      { language: 'auto', ...(speakers ? { speakers: { count: null } } : {}) },
    );
    return { sec: (performance.now() - t0) / 1000, result };
  };
  const plain = await run(false);
  const withSpeakers = await run(true);
  const clusters = new Set(withSpeakers.result.speakerTurns?.map((t) => t.speaker));
  log(`without speakers: ${plain.sec.toFixed(1)} s (${(durationSec / plain.sec).toFixed(1)}× real time)`);
  log(
    `with speakers:    ${withSpeakers.sec.toFixed(1)} s; ${clusters.size} speakers, ${withSpeakers.result.speakerTurns?.length ?? 0} turns`,
  );
  log(`ratio: ${(withSpeakers.sec / plain.sec).toFixed(2)}× (bound: ≤ 2×)`);
  await engine.close?.();
} finally {
  rmSync(work, { recursive: true, force: true });
}
