// Writes a random-weight Whisper model in whisper.cpp's legacy ggml format, so tests and benches can
// load a real model file without downloading one. It transcribes nothing meaningful: the weights are
// small seeded random numbers, which keeps the decoder's output bounded and reproducible.
//
//   node scripts/make-test-model.mjs <out.bin> [--preset test|tiny|base|small] [--quant q8_0|q5_1|q5_0]
//                                              [--seed N] [--vocab small|words]
//
// --quant writes the 2-D weights in a quantized block format, as whisper.cpp's quantize tool does
// (conv kernels stay f16, biases and positional embeddings f32): the files behind base-q8_0,
// small-q5_1 … with random blocks, to measure what quantization gains on this machine.
//
// Layout (little-endian, no padding): magic, 11 int32 hyper-parameters, the mel filterbank, the
// vocabulary, then every tensor as {n_dims, name_len, type, ne[n_dims], name, data}.
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const GGML_MAGIC = 0x67676d6c;
const N_MELS = 80;
const N_FFT_BINS = 201; // n_fft 400 → 400 / 2 + 1 bins
const SAMPLE_RATE = 16000;
const N_VOCAB_MULTILINGUAL = 51865;
const TYPE_F32 = 0;
const TYPE_F16 = 1;
/** ggml_ftype (the header) and ggml_type (each tensor) of the quantized formats; 32 values a block. */
export const QUANTS = {
  q5_0: { ftype: 8, type: 6, blockBytes: 22 },
  q5_1: { ftype: 9, type: 7, blockBytes: 24 },
  q8_0: { ftype: 7, type: 8, blockBytes: 34 },
};
const QK = 32;
/** whisper.cpp reads ftype % 1000 and the quantization version from ftype / 1000 (GGML_QNT_VERSION 2). */
const QNT_VERSION_FACTOR = 1000;
const QNT_VERSION = 2;

/** n_audio_ctx stays 1500 everywhere: whisper.cpp always feeds 30 s windows (3000 mel frames). */
export const PRESETS = {
  // Tiny on purpose: loads in milliseconds and runs ~60 s of audio in well under 2 s.
  test: { state: 8, heads: 2, audioLayers: 1, textLayers: 1, textCtx: 64, ftype: 1 },
  // The real dimensions of ggml-tiny.bin, ggml-base.bin and ggml-small.bin, for benches.
  tiny: { state: 384, heads: 6, audioLayers: 4, textLayers: 4, textCtx: 448, ftype: 1 },
  base: { state: 512, heads: 8, audioLayers: 6, textLayers: 6, textCtx: 448, ftype: 1 },
  // ggml-small.bin's dimensions (a ~470 MB file in f16): for the README's model table.
  small: { state: 768, heads: 12, audioLayers: 12, textLayers: 12, textCtx: 448, ftype: 1 },
};

// Seeded PRNG (mulberry32): the same preset and seed always give the same file.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);

/** IEEE 754 half precision, round to nearest even, subnormals included. */
function toHalf(value) {
  f32Scratch[0] = value;
  const x = u32Scratch[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rest > mid || (rest === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && half & 1)) half++;
  return sign | half;
}

// Slaney mel scale (librosa's default, the one Whisper's filters were made with).
const F_SP = 200 / 3;
const MIN_LOG_HZ = 1000;
const MIN_LOG_MEL = MIN_LOG_HZ / F_SP;
const LOG_STEP = Math.log(6.4) / 27;
const hzToMel = (hz) => (hz < MIN_LOG_HZ ? hz / F_SP : MIN_LOG_MEL + Math.log(hz / MIN_LOG_HZ) / LOG_STEP);
const melToHz = (mel) =>
  mel < MIN_LOG_MEL ? mel * F_SP : MIN_LOG_HZ * Math.exp(LOG_STEP * (mel - MIN_LOG_MEL));

/** librosa.filters.mel(sr=16000, n_fft=400, n_mels=80) with Slaney area normalisation: [mel][bin]. */
export function melFilterbank(nMels = N_MELS, nBins = N_FFT_BINS, sampleRate = SAMPLE_RATE) {
  const fftFreqs = Array.from({ length: nBins }, (_, i) => (i * sampleRate) / 2 / (nBins - 1));
  const maxMel = hzToMel(sampleRate / 2);
  const melF = Array.from({ length: nMels + 2 }, (_, i) => melToHz((i * maxMel) / (nMels + 1)));
  const out = new Float32Array(nMels * nBins);
  for (let m = 0; m < nMels; m++) {
    const lowDiff = melF[m + 1] - melF[m];
    const highDiff = melF[m + 2] - melF[m + 1];
    const enorm = 2 / (melF[m + 2] - melF[m]);
    for (let b = 0; b < nBins; b++) {
      const lower = (fftFreqs[b] - melF[m]) / lowDiff;
      const upper = (melF[m + 2] - fftFreqs[b]) / highDiff;
      out[m * nBins + b] = Math.max(0, Math.min(lower, upper)) * enorm;
    }
  }
  return out;
}

const WORDS =
  'the of and to in is you that it he was for on are as with his they at be this have from or one had by ' +
  'word but not what all were we when your can said there use an each which she do how their if will up ' +
  'other about out many then them these so some her would make like him into time has look two more write ' +
  'go see number no way could people my than first water been call who oil its now find long down day did ' +
  'get come made may part hello world video music thank';

/**
 * A small vocabulary (ids = positions; whisper.cpp fills the rest up to n_vocab and the special
 * tokens itself). Plain ASCII so every segment is valid UTF-8; it must contain the single space.
 */
export function buildVocab(kind = 'small') {
  const tokens = [];
  for (let c = 32; c < 127; c++) tokens.push(String.fromCharCode(c)); // includes ' ' (id 0)
  for (let c = 97; c <= 122; c++) tokens.push(' ' + String.fromCharCode(c));
  for (const w of new Set(WORDS.split(' '))) tokens.push(' ' + w);
  for (const w of ['ing', 'ed', 'er', 'es', 'ly', 'tion', 'th', 'ch', 'sh', 'ou', 'an', 'in', 're', 'on'])
    tokens.push(w);
  const unique = [...new Set(tokens)];
  return kind === 'words' ? fillWithWords(unique) : unique;
}

/** whisper.cpp's first special token (end of text) in a multilingual vocabulary. */
const FIRST_SPECIAL_TOKEN = 50257;
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'so', 'vi', 'de', 'po', 'an', 'el', 'or', 'us'];

/**
 * Every regular id gets a real text token: words with a leading space (most), word pieces and
 * punctuation. Random weights then decode word-shaped text ("kalo mine, rutaso.") instead of
 * "[_extra_token_N]" fillers, so word timings and regrouping can be exercised.
 */
function fillWithWords(tokens) {
  const seen = new Set(tokens);
  const out = [...tokens];
  for (let i = 0; out.length < FIRST_SPECIAL_TOKEN; i++) {
    const a = SYLLABLES[i % SYLLABLES.length];
    const b = SYLLABLES[Math.floor(i / SYLLABLES.length) % SYLLABLES.length];
    const c = Math.floor(i / (SYLLABLES.length * SYLLABLES.length));
    const kind = i % 10;
    const token = kind < 6 ? ` ${a}${b}${c || ''}` : kind < 8 ? `${b}${a}${c || ''}` : kind === 8 ? '.' : ',';
    const unique = seen.has(token) ? `${token}${i}` : token;
    seen.add(unique);
    out.push(unique);
  }
  return out;
}

/** Every tensor in the order whisper.cpp's converter writes them: [name, ne, kind]. */
function tensorList(p) {
  const S = p.state;
  const M = N_MELS;
  const A = 1500;
  const T = p.textCtx;
  const V = N_VOCAB_MULTILINGUAL;
  // kind: 'f32' always float32; 'w' = 2-D weight (f16 when ftype 1); 'conv' = conv kernel (idem).
  const list = [
    ['encoder.positional_embedding', [S, A], 'f32'],
    ['encoder.conv1.weight', [3, M, S], 'conv'],
    ['encoder.conv1.bias', [1, S], 'f32'],
    ['encoder.conv2.weight', [3, S, S], 'conv'],
    ['encoder.conv2.bias', [1, S], 'f32'],
  ];
  const block = (prefix, attn) => [
    [`${prefix}.${attn}_ln.weight`, [S], 'f32'],
    [`${prefix}.${attn}_ln.bias`, [S], 'f32'],
    [`${prefix}.${attn}.query.weight`, [S, S], 'w'],
    [`${prefix}.${attn}.query.bias`, [S], 'f32'],
    [`${prefix}.${attn}.key.weight`, [S, S], 'w'],
    [`${prefix}.${attn}.value.weight`, [S, S], 'w'],
    [`${prefix}.${attn}.value.bias`, [S], 'f32'],
    [`${prefix}.${attn}.out.weight`, [S, S], 'w'],
    [`${prefix}.${attn}.out.bias`, [S], 'f32'],
  ];
  const mlp = (prefix) => [
    [`${prefix}.mlp_ln.weight`, [S], 'f32'],
    [`${prefix}.mlp_ln.bias`, [S], 'f32'],
    [`${prefix}.mlp.0.weight`, [S, 4 * S], 'w'],
    [`${prefix}.mlp.0.bias`, [4 * S], 'f32'],
    [`${prefix}.mlp.2.weight`, [4 * S, S], 'w'],
    [`${prefix}.mlp.2.bias`, [S], 'f32'],
  ];
  for (let i = 0; i < p.audioLayers; i++) {
    const prefix = `encoder.blocks.${i}`;
    list.push(...mlp(prefix), ...block(prefix, 'attn'));
  }
  list.push(['encoder.ln_post.weight', [S], 'f32'], ['encoder.ln_post.bias', [S], 'f32']);
  list.push(['decoder.positional_embedding', [S, T], 'f32'], ['decoder.token_embedding.weight', [S, V], 'w']);
  for (let i = 0; i < p.textLayers; i++) {
    const prefix = `decoder.blocks.${i}`;
    list.push(...mlp(prefix), ...block(prefix, 'attn'), ...block(prefix, 'cross_attn'));
  }
  list.push(['decoder.ln.weight', [S], 'f32'], ['decoder.ln.bias', [S], 'f32']);
  return list;
}

function int32s(values) {
  const buf = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => buf.writeInt32LE(v, i * 4));
  return buf;
}

const CHUNK_ELEMENTS = 1 << 18;

/**
 * `count` values in `q`'s block format: a scale of ~0.1 / 2^bits (and for q5_1 a minimum) in half
 * precision, then random quants, so values stay in the same small range as the f16 weights.
 */
async function writeQuantized(write, scratch, rand, q, count) {
  const blocks = count / QK;
  const perChunk = Math.floor(scratch.length / q.blockBytes);
  for (let done = 0; done < blocks;) {
    const n = Math.min(perChunk, blocks - done);
    for (let b = 0; b < n; b++) {
      const at = b * q.blockBytes;
      for (let i = 0; i < q.blockBytes; i++) scratch[at + i] = Math.floor(rand() * 256);
      if (q === QUANTS.q8_0) scratch.writeUInt16LE(toHalf(0.05 / 127), at);
      else scratch.writeUInt16LE(toHalf(0.1 / 31), at);
      if (q === QUANTS.q5_1) scratch.writeUInt16LE(toHalf(-0.05), at + 2);
    }
    await write(scratch.subarray(0, n * q.blockBytes));
    done += n;
  }
}

/**
 * Writes the model to `outPath` (through a temporary file renamed at the end) and returns its size
 * in bytes. Memory stays bounded: tensor data goes out in chunks of 256 K elements.
 */
export async function makeTestModel(
  outPath,
  preset = 'test',
  { seed = 20240601, vocab = 'small', quant = null } = {},
) {
  const p = PRESETS[preset];
  if (!p) throw new Error(`unknown preset "${preset}" (known: ${Object.keys(PRESETS).join(', ')})`);
  const q = quant ? QUANTS[quant] : null;
  if (quant && !q)
    throw new Error(`unknown quantization "${quant}" (known: ${Object.keys(QUANTS).join(', ')})`);
  if (q && p.state % QK !== 0) throw new Error(`preset "${preset}" cannot be quantized (rows of ${QK})`);
  if (p.state % p.heads !== 0) throw new Error('state must be a multiple of heads');
  const rand = mulberry32(seed);
  const tmp = `${outPath}.${process.pid}.tmp`;
  const fh = await open(tmp, 'w');
  let size = 0;
  // One scratch buffer, reused: each write completes before the next chunk is generated.
  const scratch = Buffer.allocUnsafeSlow(CHUNK_ELEMENTS * 4);
  const scratchView = new DataView(scratch.buffer, scratch.byteOffset, scratch.byteLength);
  const write = async (buf) => {
    await fh.write(buf);
    size += buf.length;
  };
  try {
    const header = Buffer.alloc(4);
    header.writeUInt32LE(GGML_MAGIC, 0);
    await write(header);
    await write(
      int32s([
        N_VOCAB_MULTILINGUAL,
        1500,
        p.state,
        p.heads,
        p.audioLayers,
        p.textCtx,
        p.state,
        p.heads,
        p.textLayers,
        N_MELS,
        q ? q.ftype + QNT_VERSION * QNT_VERSION_FACTOR : p.ftype,
      ]),
    );

    await write(int32s([N_MELS, N_FFT_BINS]));
    const filters = melFilterbank();
    await write(Buffer.from(filters.buffer, filters.byteOffset, filters.byteLength));

    const tokens = buildVocab(vocab);
    const parts = [int32s([tokens.length])];
    for (const token of tokens) {
      const bytes = Buffer.from(token, 'utf8');
      const len = Buffer.alloc(4);
      len.writeUInt32LE(bytes.length, 0);
      parts.push(len, bytes);
    }
    await write(Buffer.concat(parts));

    for (const [name, ne, kind] of tensorList(p)) {
      const quantized = q !== null && kind === 'w';
      const half = !quantized && kind !== 'f32' && (p.ftype === 1 || q !== null);
      const nameBytes = Buffer.from(name, 'utf8');
      const type = quantized ? q.type : half ? TYPE_F16 : TYPE_F32;
      await write(Buffer.concat([int32s([ne.length, nameBytes.length, type, ...ne]), nameBytes]));
      let remaining = ne.reduce((a, b) => a * b, 1);
      if (quantized) {
        await writeQuantized(write, scratch, rand, q, remaining);
        continue;
      }
      while (remaining > 0) {
        const n = Math.min(remaining, CHUNK_ELEMENTS);
        if (half) {
          for (let i = 0; i < n; i++) scratchView.setUint16(i * 2, toHalf((rand() - 0.5) * 0.1), true);
        } else {
          for (let i = 0; i < n; i++) scratchView.setFloat32(i * 4, (rand() - 0.5) * 0.1, true);
        }
        await write(scratch.subarray(0, n * (half ? 2 : 4)));
        remaining -= n;
      }
    }
    await fh.close();
    await rename(tmp, outPath);
    return size;
  } catch (err) {
    await fh.close().catch(() => {});
    await rm(tmp, { force: true });
    throw err;
  }
}

async function main(argv) {
  const args = [...argv];
  let preset = 'test';
  let seed;
  let vocab = 'small';
  let quant = null;
  const rest = [];
  while (args.length) {
    const a = args.shift();
    if (a === '--preset') preset = args.shift();
    else if (a.startsWith('--preset=')) preset = a.slice('--preset='.length);
    else if (a === '--seed') seed = Number(args.shift());
    else if (a === '--vocab') vocab = args.shift();
    else if (a === '--quant') quant = args.shift();
    else rest.push(a);
  }
  if (
    rest.length !== 1 ||
    !PRESETS[preset] ||
    (seed !== undefined && !Number.isInteger(seed)) ||
    !['small', 'words'].includes(vocab) ||
    (quant !== null && !QUANTS[quant])
  ) {
    process.stderr.write(
      `usage: node scripts/make-test-model.mjs <out.bin> [--preset ${Object.keys(PRESETS).join('|')}] [--quant ${Object.keys(QUANTS).join('|')}] [--seed N] [--vocab small|words]\n`,
    );
    process.exit(2);
  }
  const started = Date.now();
  const out = path.resolve(rest[0]);
  const size = await makeTestModel(out, preset, { vocab, quant, ...(seed === undefined ? {} : { seed }) });
  process.stderr.write(
    `wrote ${out} (${preset}${quant ? ` ${quant}` : ''}, ${(size / 1e6).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  });
}
