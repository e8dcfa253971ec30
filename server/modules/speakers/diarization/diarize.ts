// Speaker diarization inside the engine's child process (sherpa-onnx-node: pyannote segmentation,
// speaker embeddings, fast clustering). The native library aborts the whole process on a model
// file it cannot parse, which is why it only ever runs in the child, after the checks below.

import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { SpeakerTurn } from '../../../../common/speakers';
import type { DiarizationPaths } from './models';

export interface DiarizeJob extends DiarizationPaths {
  /** Expected number of speakers; null = let the clustering decide. */
  speakers: number | null;
  threads?: number;
}

export type ModelCheck =
  { ok: true } | { ok: false; code: 'model_missing' | 'model_invalid'; reason: string };

/** Smallest plausible model (the segmentation model is ≈ 6 MB; a truncated download is far less). */
const MIN_MODEL_BYTES = 64 * 1024;

/**
 * Whether a file can be an ONNX model: present, not tiny, and starting like one (an ONNX model is
 * a protobuf ModelProto whose first field is ir_version, tag 0x08). Catches a missing file, an
 * HTML error page or an interrupted download before native code sees it.
 */
export function checkOnnxFile(file: string): ModelCheck {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) return { ok: false, code: 'model_invalid', reason: `${file} is not a file` };
    size = st.size;
  } catch {
    return { ok: false, code: 'model_missing', reason: `${file} does not exist` };
  }
  if (size < MIN_MODEL_BYTES)
    return { ok: false, code: 'model_invalid', reason: `${file} is too small (${size} bytes) to be a model` };
  const head = Buffer.alloc(1);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 1, 0);
  } finally {
    closeSync(fd);
  }
  if (head[0] !== 0x08) return { ok: false, code: 'model_invalid', reason: `${file} is not an ONNX model` };
  return { ok: true };
}

export function checkDiarizationModels(job: DiarizationPaths): ModelCheck {
  const seg = checkOnnxFile(job.segmentation);
  return seg.ok ? checkOnnxFile(job.embedding) : seg;
}

interface SherpaDiarizer {
  sampleRate: number;
  process(samples: Float32Array): { start: number; end: number; speaker: number }[];
}

/** The native binding, loaded on first use only (it maps ≈ 30 MB of libraries). */
export function loadSherpa(): {
  version: string;
  OfflineSpeakerDiarization: new (config: unknown) => SherpaDiarizer;
} {
  return createRequire(import.meta.url)('sherpa-onnx-node');
}

/** Who spoke when in 16 kHz mono samples. Throws when the models cannot be used. */
export function diarize(job: DiarizeJob, samples: Float32Array): SpeakerTurn[] {
  const sherpa = loadSherpa();
  const sd = new sherpa.OfflineSpeakerDiarization({
    segmentation: { pyannote: { model: job.segmentation }, numThreads: job.threads ?? 1 },
    embedding: { model: job.embedding, numThreads: job.threads ?? 1 },
    // numClusters > 0 fixes the number of speakers; otherwise the threshold decides.
    clustering: { numClusters: job.speakers && job.speakers > 0 ? job.speakers : -1, threshold: 0.5 },
    minDurationOn: 0.2,
    minDurationOff: 0.5,
  });
  if (sd.sampleRate !== 16000) throw new Error(`diarization expects ${sd.sampleRate} Hz audio`);
  return sd.process(samples).map((t) => ({ start: t.start, end: t.end, speaker: t.speaker }));
}
