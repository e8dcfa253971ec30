// The whisper engine against a random-weight model in the real ggml format (scripts/make-test-model.mjs)
// and real audio from ffmpeg/espeak-ng. Random weights transcribe nothing meaningful, so these tests
// check structure and failure handling, never words.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WHISPER_LANGUAGES } from '../../../../common/whisper-languages';
import { EngineError, type Engine, type Segment } from '../types';
import { createWhisperEngine, resolveModelPath, type WhisperEngineOptions } from './engine';
import { checkModelFile, expectedTensorCount } from './model-file';
import { SLOW_PROCESS_TIMEOUT_MS, waitFor } from '../../../test/wait';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const SR = 16000;

let dir: string;
let model: string;
let tone40: string;
let tone120: string;
let speech: { pcm: string; durationSec: number } | null = null;

function ffmpegPcm(out: string, input: string[], seconds?: number): void {
  const args = ['-hide_banner', '-loglevel', 'error', '-y', ...input];
  if (seconds) args.push('-t', String(seconds));
  execFileSync('ffmpeg', [...args, '-ar', String(SR), '-ac', '1', '-f', 's16le', out]);
}

const pcmSeconds = (pcm: string) => readFileSync(pcm).length / 2 / SR;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function engine(extra: Partial<WhisperEngineOptions> = {}): Engine {
  // Temperature 1 is a single decoding pass: random weights never pass whisper.cpp's quality
  // checks, so temperature 0 would fall back through six temperatures (tested once below).
  return createWhisperEngine({ modelPath: model, modelName: 'tiny', threads: 2, temperature: 1, ...extra });
}

function expectWellFormed(segments: Segment[], durationSec: number): void {
  let prevEnd = 0;
  for (const s of segments) {
    expect(s.start).toBeGreaterThanOrEqual(0);
    expect(s.start).toBeGreaterThanOrEqual(prevEnd);
    expect(s.end).toBeGreaterThan(s.start);
    expect(s.end).toBeLessThanOrEqual(durationSec);
    expect(typeof s.text).toBe('string');
    expect(s.text.trim()).toBe(s.text);
    expect(s.text.length).toBeGreaterThan(0);
    prevEnd = s.end;
  }
}

async function rejection(p: Promise<unknown>): Promise<EngineError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(EngineError);
    return err as EngineError;
  }
  throw new Error('expected a rejection');
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'cs-whisper-'));
  model = path.join(dir, 'ggml-test.bin');
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'scripts/make-test-model.mjs'), model, '--preset', 'test'],
    {
      stdio: 'pipe',
    },
  );
  tone40 = path.join(dir, 'tone40.pcm');
  ffmpegPcm(tone40, ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=40']);
  tone120 = path.join(dir, 'tone120.pcm');
  ffmpegPcm(tone120, ['-f', 'lavfi', '-i', 'sine=frequency=300:duration=120']);
  const wav = path.join(dir, 'speech.wav');
  const espeak = spawnSync(
    'espeak-ng',
    ['-w', wav, 'Hello, this is a short test of the transcription engine. It has two sentences.'],
    { stdio: 'ignore' },
  );
  if (!espeak.error && espeak.status === 0) {
    const pcm = path.join(dir, 'speech.pcm');
    ffmpegPcm(pcm, ['-i', wav]);
    speech = { pcm, durationSec: pcmSeconds(pcm) };
  }
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

// Real whisper.cpp decoding in a child process: slow when the two cores are shared.
describe('whisper engine', { timeout: SLOW_PROCESS_TIMEOUT_MS }, () => {
  it('transcribes a tone: ordered segments within the audio, progress to 100, detected language', async () => {
    const progress: number[] = [];
    const streamed: Segment[] = [];
    const result = await engine().transcribe(
      { pcmPath: tone40, durationSec: 40 },
      {
        detectSpeech: false,
        language: 'auto',
        onProgress: (p) => progress.push(p),
        onSegment: (s) => streamed.push(s),
      },
    );
    expect(result.segments.length).toBeGreaterThan(0);
    expectWellFormed(result.segments, 40);
    expect(streamed).toEqual(result.segments);
    expect(progress.at(-1)).toBe(100);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]!);
    for (const p of progress) expect(p >= 0 && p <= 100).toBe(true);
    expect(WHISPER_LANGUAGES as readonly string[]).toContain(result.language);
  });

  it('transcribes speech in a given language, and with the default temperature fallback', async () => {
    const audio = speech ?? { pcm: tone40, durationSec: 40 };
    const result = await engine({ temperature: undefined }).transcribe(
      { pcmPath: audio.pcm, durationSec: audio.durationSec },
      { detectSpeech: false, language: 'de', translate: true },
    );
    expect(result.language).toBe('de');
    expectWellFormed(result.segments, audio.durationSec);
  });

  it('decodes long audio in chunks, with progress after each and ordered times across them', async () => {
    const progress: number[] = [];
    const result = await engine({ maxChunkSec: 20 }).transcribe(
      { pcmPath: tone120, durationSec: 120 },
      { detectSpeech: false, language: 'en', onProgress: (p) => progress.push(p) },
    );
    expectWellFormed(result.segments, 120);
    expect(result.segments.at(-1)!.end).toBeGreaterThan(60);
    expect(progress.filter((p) => p > 0 && p < 100).length).toBeGreaterThanOrEqual(3);
    expect(progress.at(-1)).toBe(100);
  });

  it('clamps times to the duration the caller gives', async () => {
    const result = await engine().transcribe(
      { pcmPath: tone40, durationSec: 25 },
      { detectSpeech: false, language: 'en' },
    );
    expectWellFormed(result.segments, 25);
  });

  it('cancels through the AbortSignal within a second and leaves no process behind', async () => {
    const controller = new AbortController();
    let pid = 0;
    const job = engine({ temperature: 0, onSpawn: (p) => (pid = p) }).transcribe(
      { pcmPath: tone120, durationSec: 120 },
      { detectSpeech: false, language: 'auto', signal: controller.signal },
    );
    await waitFor(() => pid > 0 && isAlive(pid), { ms: 30_000, what: 'the whisper child to run' });
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(true);
    const t = Date.now();
    controller.abort();
    const err = await rejection(job);
    expect(Date.now() - t).toBeLessThan(1000);
    expect(err.code).toBe('canceled');
    expect(isAlive(pid)).toBe(false);
  });

  it('fails a job whose child is killed from outside as engine_crashed, and runs the next one', async () => {
    const pids: number[] = [];
    // Temperature 0 on random weights takes seconds: the kill surely lands mid-job.
    const e = engine({ temperature: 0, onSpawn: (p) => pids.push(p) });
    const job = e.transcribe({ pcmPath: tone120, durationSec: 120 }, { detectSpeech: false, language: 'en' });
    // Under load the child may take a while to start: kill it once it exists.
    await waitFor(() => pids.length > 0, { ms: 30_000, what: 'the whisper child to start' });
    process.kill(pids[0]!, 'SIGKILL');
    const err = await rejection(job);
    expect(err.code).toBe('engine_crashed');
    expect(err.transient).toBe(true);

    const next = await e.transcribe(
      { pcmPath: tone40, durationSec: 40 },
      { detectSpeech: false, language: 'en' },
    );
    expectWellFormed(next.segments, 40);
    expect(pids).toHaveLength(2);
  }, 120_000);

  it('reports a missing model with the command that downloads it', async () => {
    const e = createWhisperEngine({ modelPath: path.join(dir, 'nope.bin'), modelName: 'small' });
    const err = await rejection(
      e.transcribe({ pcmPath: tone40, durationSec: 40 }, { detectSpeech: false, language: 'en' }),
    );
    expect(err.code).toBe('model_missing');
    expect(err.message).toContain('npm run model:download -- small');
  });

  it('reports corrupt and truncated models as model_invalid instead of crashing or hanging', async () => {
    const garbage = path.join(dir, 'garbage.bin');
    writeFileSync(garbage, Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => (i * 7919) % 251)));
    // Cut inside the mel filterbank: whisper.cpp itself loads that and aborts on the first window.
    const bytes = readFileSync(model);
    const cutEarly = path.join(dir, 'cut-early.bin');
    writeFileSync(cutEarly, bytes.subarray(0, 40_000));
    const cutLate = path.join(dir, 'cut-late.bin');
    writeFileSync(cutLate, bytes.subarray(0, bytes.length - 10));
    for (const bad of [garbage, cutEarly, cutLate]) {
      const err = await rejection(
        engine({ modelPath: bad }).transcribe(
          { pcmPath: tone40, durationSec: 40 },
          { detectSpeech: false, language: 'en' },
        ),
      );
      expect(err.code).toBe('model_invalid');
      expect(err.transient).toBe(false);
    }
  });

  it('refuses an unknown language before starting anything', async () => {
    let spawned = false;
    const err = await rejection(
      engine({ onSpawn: () => (spawned = true) }).transcribe(
        { pcmPath: tone40, durationSec: 40 },
        { detectSpeech: false, language: 'xx' },
      ),
    );
    expect(err.code).toBe('unsupported_language');
    expect(spawned).toBe(false);
  });

  it('kills a silent child with the watchdog', async () => {
    let pid = 0;
    const err = await rejection(
      engine({ watchdogMs: 30, onSpawn: (p) => (pid = p) }).transcribe(
        { pcmPath: tone40, durationSec: 40 },
        { detectSpeech: false, language: 'en' },
      ),
    );
    expect(err.code).toBe('engine_timeout');
    expect(err.transient).toBe(true);
    // A child was started, and the watchdog killed it (reaped within moments of the rejection).
    expect(pid).toBeGreaterThan(0);
    await waitFor(() => !isAlive(pid), { ms: 10_000, what: 'the silent child to be gone' });
    expect(isAlive(pid)).toBe(false);
  });

  it('cancels running jobs on close() and refuses new ones', async () => {
    let pid = 0;
    const e = engine({ temperature: 0, onSpawn: (p) => (pid = p) });
    const job = e.transcribe({ pcmPath: tone120, durationSec: 120 }, { detectSpeech: false, language: 'en' });
    await waitFor(() => pid > 0, { ms: 30_000, what: 'the whisper child to start' });
    await e.close!();
    expect((await rejection(job)).code).toBe('canceled');
    expect(isAlive(pid)).toBe(false);
    expect(
      (
        await rejection(
          e.transcribe({ pcmPath: tone40, durationSec: 40 }, { detectSpeech: false, language: 'en' }),
        )
      ).code,
    ).toBe('canceled');
  });

  it('rejects an already aborted signal without spawning', async () => {
    let spawned = false;
    const err = await rejection(
      engine({ onSpawn: () => (spawned = true) }).transcribe(
        { pcmPath: tone40, durationSec: 40 },
        { detectSpeech: false, language: 'en', signal: AbortSignal.abort() },
      ),
    );
    expect(err.code).toBe('canceled');
    expect(spawned).toBe(false);
  });
});

describe('checkModelFile', () => {
  it('accepts the generated model and reads its hyper-parameters', () => {
    const check = checkModelFile(model);
    expect(check).toMatchObject({ ok: true, verified: true, tensors: expectedTensorCount(1, 1) });
    if (check.ok)
      expect(check.hparams).toMatchObject({ nVocab: 51865, nAudioCtx: 1500, nMels: 80, ftype: 1 });
  });

  it('names what is wrong with a broken file', () => {
    const bytes = readFileSync(model);
    const cut = path.join(dir, 'cut-check.bin');
    writeFileSync(cut, bytes.subarray(0, bytes.length - 1));
    expect(checkModelFile(cut)).toEqual({
      ok: false,
      reason: expect.stringContaining('truncated tensor data'),
    });
    writeFileSync(cut, Buffer.concat([bytes, Buffer.alloc(3)]));
    expect(checkModelFile(cut)).toEqual({
      ok: false,
      reason: expect.stringContaining('truncated tensor header'),
    });
    expect(checkModelFile(path.join(dir, 'absent.bin'))).toMatchObject({ ok: false });
  });
});

describe('resolveModelPath', () => {
  it('prefers WHISPER_MODEL, else the named model in DATA_DIR/models', () => {
    expect(resolveModelPath({ DATA_DIR: '/data' })).toEqual({
      path: '/data/models/ggml-base.bin',
      name: 'base',
    });
    expect(resolveModelPath({ DATA_DIR: '/data', WHISPER_MODEL_NAME: 'small' })).toEqual({
      path: '/data/models/ggml-small.bin',
      name: 'small',
    });
    expect(resolveModelPath({ DATA_DIR: '/data', WHISPER_MODEL: '/m/ggml-tiny.en.bin' })).toEqual({
      path: '/m/ggml-tiny.en.bin',
      name: 'tiny.en',
    });
    expect(
      resolveModelPath({ DATA_DIR: '/data', WHISPER_MODEL: '/m/custom.bin', WHISPER_MODEL_NAME: '' }),
    ).toEqual({
      path: '/m/custom.bin',
      name: 'base',
    });
  });
});
