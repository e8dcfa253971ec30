// Structural check of a legacy whisper.cpp ggml model file, run before handing it to whisper.cpp.
// whisper.cpp accepts some broken files: one cut before its first tensor loads as an "empty model
// for testing" and then aborts the process on the first transcription, and one cut inside its
// last tensor loads silently. Walking the headers (no tensor data is read) catches both in
// milliseconds, so a bad download is reported as an invalid model instead of a crash or a hang.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export const GGML_MAGIC = 0x67676d6c;

export interface GgmlHparams {
  nVocab: number;
  nAudioCtx: number;
  nAudioState: number;
  nAudioHead: number;
  nAudioLayer: number;
  nTextCtx: number;
  nTextState: number;
  nTextHead: number;
  nTextLayer: number;
  nMels: number;
  ftype: number;
}

const HPARAM_KEYS = [
  'nVocab',
  'nAudioCtx',
  'nAudioState',
  'nAudioHead',
  'nAudioLayer',
  'nTextCtx',
  'nTextState',
  'nTextHead',
  'nTextLayer',
  'nMels',
  'ftype',
] as const satisfies readonly (keyof GgmlHparams)[];

export type ModelFileCheck =
  { ok: true; hparams: GgmlHparams; tensors: number; verified: boolean } | { ok: false; reason: string };

/** ggml type id → [bytes per block, elements per block], for the types whisper models use. */
const TYPE_SIZES: Record<number, [number, number]> = {
  0: [4, 1], // f32
  1: [2, 1], // f16
  2: [18, 32], // q4_0
  3: [20, 32], // q4_1
  6: [22, 32], // q5_0
  7: [24, 32], // q5_1
  8: [34, 32], // q8_0
  9: [36, 32], // q8_1
  10: [84, 256], // q2_K
  11: [110, 256], // q3_K
  12: [144, 256], // q4_K
  13: [176, 256], // q5_K
  14: [210, 256], // q6_K
  15: [292, 256], // q8_K
  30: [2, 1], // bf16
};

const WINDOW = 1 << 20;

/** Sequential little-endian reads over a file through a 1 MB window; skips without reading. */
class Reader {
  private buf = Buffer.alloc(WINDOW);
  private bufStart = 0;
  private bufLen = 0;
  pos = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  private ensure(n: number): boolean {
    if (this.pos + n > this.size) return false;
    if (this.pos >= this.bufStart && this.pos + n <= this.bufStart + this.bufLen) return true;
    if (n > this.buf.length) this.buf = Buffer.alloc(n);
    this.bufStart = this.pos;
    this.bufLen = readSync(this.fd, this.buf, 0, this.buf.length, this.pos);
    return this.pos + n <= this.bufStart + this.bufLen;
  }

  i32(): number | null {
    if (!this.ensure(4)) return null;
    const v = this.buf.readInt32LE(this.pos - this.bufStart);
    this.pos += 4;
    return v;
  }

  u32(): number | null {
    if (!this.ensure(4)) return null;
    const v = this.buf.readUInt32LE(this.pos - this.bufStart);
    this.pos += 4;
    return v;
  }

  skip(n: number): boolean {
    if (this.pos + n > this.size) return false;
    this.pos += n;
    return true;
  }
}

/** Number of tensors whisper.cpp requires for the given layer counts. */
export function expectedTensorCount(audioLayers: number, textLayers: number): number {
  return 7 + 15 * audioLayers + 4 + 24 * textLayers;
}

export function checkModelFile(path: string): ModelFileCheck {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    return { ok: false, reason: `cannot open: ${(err as Error).message}` };
  }
  try {
    const size = fstatSync(fd).size;
    const r = new Reader(fd, size);
    const magic = r.u32();
    if (magic === null) return { ok: false, reason: 'file is empty or too short' };
    if (magic !== GGML_MAGIC)
      return { ok: false, reason: `not a whisper.cpp ggml model (magic 0x${magic.toString(16)})` };

    // The header is these 11 int32 values, in this order.
    const values: number[] = [];
    for (let i = 0; i < HPARAM_KEYS.length; i++) {
      const v = r.i32();
      if (v === null) return { ok: false, reason: 'truncated header' };
      values.push(v);
    }
    const hparams = Object.fromEntries(HPARAM_KEYS.map((k, i) => [k, values[i]!])) as unknown as GgmlHparams;
    const { nAudioState, nAudioHead, nAudioLayer, nTextState, nTextHead, nTextLayer, ftype } = hparams;
    const dims = values.slice(0, 10);
    if (dims.some((v) => v <= 0 || v > 1_000_000) || ftype < 0)
      return { ok: false, reason: `implausible hyper-parameters ${values.join(',')}` };
    if (nAudioState % nAudioHead !== 0 || nTextState % nTextHead !== 0)
      return { ok: false, reason: 'state size is not a multiple of the head count' };

    const nMel = r.i32();
    const nFft = r.i32();
    if (nMel === null || nFft === null || nMel <= 0 || nFft <= 0 || nMel > 1024 || nFft > 65536)
      return { ok: false, reason: 'bad mel filterbank header' };
    if (!r.skip(nMel * nFft * 4)) return { ok: false, reason: 'truncated mel filterbank' };

    const nTokens = r.i32();
    if (nTokens === null || nTokens < 0 || nTokens > 1_000_000)
      return { ok: false, reason: 'bad vocabulary size' };
    for (let i = 0; i < nTokens; i++) {
      const len = r.u32();
      if (len === null || len > 4096 || !r.skip(len))
        return { ok: false, reason: `truncated vocabulary (token ${i})` };
    }

    let tensors = 0;
    while (r.pos < size) {
      const nDims = r.i32();
      const nameLen = r.i32();
      const type = r.i32();
      if (nDims === null || nameLen === null || type === null)
        return { ok: false, reason: `truncated tensor header (tensor ${tensors})` };
      if (nDims < 1 || nDims > 4 || nameLen < 1 || nameLen > 1024)
        return { ok: false, reason: `corrupt tensor header (tensor ${tensors})` };
      let elements = 1;
      for (let d = 0; d < nDims; d++) {
        const ne = r.i32();
        if (ne === null || ne <= 0) return { ok: false, reason: `corrupt tensor shape (tensor ${tensors})` };
        elements *= ne;
      }
      if (!r.skip(nameLen)) return { ok: false, reason: `truncated tensor name (tensor ${tensors})` };
      const typeSize = TYPE_SIZES[type];
      // A type this check does not know: leave the rest to whisper.cpp rather than refuse the file.
      if (!typeSize) return { ok: true, hparams, tensors, verified: false };
      const [bytes, block] = typeSize;
      if (elements % block !== 0) return { ok: false, reason: `tensor ${tensors} does not fit its type` };
      if (!r.skip((elements / block) * bytes))
        return { ok: false, reason: `truncated tensor data (tensor ${tensors})` };
      tensors++;
    }
    const expected = expectedTensorCount(nAudioLayer, nTextLayer);
    if (tensors !== expected) return { ok: false, reason: `has ${tensors} tensors, expected ${expected}` };
    return { ok: true, hparams, tensors, verified: true };
  } finally {
    closeSync(fd);
  }
}
