// Writes a random-weight instruct model in GGUF (llama.cpp's format) with the Qwen2 architecture,
// so tests and benches run the real node-llama-cpp path without downloading weights. It says
// nothing meaningful; JSON-schema grammars still make its output valid structure.
//
//   node scripts/make-llm-model.mjs <out.gguf> [--preset test|qwen2.5-0.5b|qwen2.5-1.5b|qwen2.5-3b] [--seed N]
//
// The `test` preset is tiny (f32, < 1 MB, loads in milliseconds). The qwen2.5-* presets have the
// published models' real dimensions (hidden size, layers, heads, feed-forward size, a 151,936-token
// vocabulary, tied embeddings) and write the weights in Q4_K_M's block layout (Q4_K, with Q6_K where
// llama.cpp's Q4_K_M puts it), so loading, memory and speed are those of the real file.
//
// The vocabulary is byte-level BPE like Qwen's: the 256 byte tokens, merges learned from sample
// English text (so ordinary text takes about as many tokens as with the real vocabulary), the
// ChatML control tokens, and fillers up to the real vocabulary size.
//
// Layout (GGUF v3, little-endian): magic, version, tensor and key counts, the keys, the tensor
// descriptions, padding to 32 bytes, then each tensor's data at its 32-byte-aligned offset.
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const PRESETS = {
  test: { hidden: 64, layers: 2, heads: 4, kvHeads: 2, ffn: 128, vocab: 0, merges: 200, quant: 'f32' },
  'qwen2.5-0.5b': {
    hidden: 896,
    layers: 24,
    heads: 14,
    kvHeads: 2,
    ffn: 4864,
    vocab: 151_936,
    merges: 6000,
    quant: 'q4_k_m',
  },
  'qwen2.5-1.5b': {
    hidden: 1536,
    layers: 28,
    heads: 12,
    kvHeads: 2,
    ffn: 8960,
    vocab: 151_936,
    merges: 6000,
    quant: 'q4_k_m',
  },
  'qwen2.5-3b': {
    hidden: 2048,
    layers: 36,
    heads: 16,
    kvHeads: 2,
    ffn: 11008,
    vocab: 151_936,
    merges: 6000,
    quant: 'q4_k_m',
  },
};

const GGUF = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9 };
const TYPE = { F32: 0, Q5_0: 6, Q8_0: 8, Q4_K: 12, Q6_K: 14 };
/** Bytes per block and values per block of each tensor type. */
const BLOCK = {
  [TYPE.F32]: [4, 1],
  [TYPE.Q5_0]: [22, 32],
  [TYPE.Q8_0]: [34, 32],
  [TYPE.Q4_K]: [144, 256],
  [TYPE.Q6_K]: [210, 256],
};
const ALIGN = 32;
/** llama_ftype: all f32, or mostly Q4_K_M. */
const FILE_TYPE = { f32: 0, q4_k_m: 15 };

export const CHAT_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}" +
  "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** Sample text the merges are learned from: the words of meetings, talks and lessons. */
const SAMPLE = `So the plan for this quarter is simple. We ship the new onboarding flow by the end of March,
and then we look at the numbers again. Maria will own the design review, and Tom said he would
send the budget by Friday. Does anyone have questions about the timeline? I think the biggest risk
is the migration of the old accounts, because we still do not know how many of them are active.
Welcome back to the channel. Today we are going to talk about how to record better audio at home,
why the room matters more than the microphone, and what you can do with a blanket and a closet.
Let us start with the basics: the distance between your mouth and the microphone, the gain, and
the noise floor. In this lecture we will prove that every bounded sequence has a convergent
subsequence. First, recall the definition of a limit, then the completeness of the real numbers.
The customer called because the order arrived late and the invoice was wrong. We agreed to refund
the shipping cost and to check with the warehouse what happened. Next week we will decide whether
to change the carrier. Thank you everyone, that is all for today, see you next time.`;

/** GPT-2's byte → printable character table, which Qwen's vocabulary uses too. */
function byteChars() {
  const keep = [];
  for (let b = 33; b <= 126; b++) keep.push(b);
  for (let b = 161; b <= 172; b++) keep.push(b);
  for (let b = 174; b <= 255; b++) keep.push(b);
  const map = new Array(256);
  let extra = 0;
  for (let b = 0; b < 256; b++)
    map[b] = keep.includes(b) ? String.fromCodePoint(b) : String.fromCodePoint(256 + extra++);
  return map;
}

/** Byte-level BPE merges learned from the sample, most frequent pair first. */
function learnMerges(count) {
  const chars = byteChars();
  const words = new Map();
  for (const m of SAMPLE.matchAll(/ ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+/g)) {
    const w = [...Buffer.from(m[0], 'utf8')].map((b) => chars[b]);
    const key = w.join('\u0000');
    words.set(key, (words.get(key) ?? 0) + 1);
  }
  let list = [...words].map(([k, n]) => ({ parts: k.split('\u0000'), n }));
  const merges = [];
  while (merges.length < count) {
    const pairs = new Map();
    for (const { parts, n } of list)
      for (let i = 0; i + 1 < parts.length; i++) {
        const p = `${parts[i]} ${parts[i + 1]}`;
        pairs.set(p, (pairs.get(p) ?? 0) + n);
      }
    let best = null;
    let bestN = 0;
    for (const [p, n] of pairs) if (n > bestN) [best, bestN] = [p, n];
    if (!best) break;
    merges.push(best);
    const [a, b] = best.split(' ');
    list = list.map(({ parts, n }) => {
      const out = [];
      for (let i = 0; i < parts.length; i++) {
        if (parts[i] === a && parts[i + 1] === b) {
          out.push(a + b);
          i++;
        } else out.push(parts[i]);
      }
      return { parts: out, n };
    });
  }
  return merges;
}

/** Tokens (bytes, merges, control tokens, fillers), their types, and the merges. */
export function vocabulary(preset) {
  const merges = learnMerges(preset.merges);
  const tokens = [...byteChars()];
  const seen = new Set(tokens);
  for (const m of merges) {
    const t = m.replace(' ', '');
    if (!seen.has(t)) {
      seen.add(t);
      tokens.push(t);
    }
  }
  const types = tokens.map(() => 1);
  const control = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'];
  const size = Math.max(preset.vocab, tokens.length + control.length);
  // Fillers stand where the real vocabulary has its other words; the control tokens end it.
  for (let i = 0; tokens.length < size - control.length; i++) {
    tokens.push(`ĉ${i.toString(36)}`);
    types.push(1);
  }
  const ids = {};
  for (const c of control) {
    ids[c] = tokens.length;
    tokens.push(c);
    types.push(3);
  }
  return {
    tokens,
    types,
    merges,
    eos: ids['<|im_end|>'],
    bos: ids['<|endoftext|>'],
    pad: ids['<|endoftext|>'],
  };
}

/** A seeded xorshift generator of 32-bit words. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>>= 0);
  };
}

/** IEEE half-precision bits of a small positive number. */
function f16(x) {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0];
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  return ((u >>> 16) & 0x8000) | (Math.max(0, Math.min(31, exp)) << 10) | ((u >>> 13) & 0x3ff);
}

/**
 * One block pattern per type, repeated over a tensor: random codes, with each block's scale set to
 * a small half-precision number so activations stay finite (random scale bytes could be NaN).
 */
function blockPattern(type, next, blocks) {
  const [bytes] = BLOCK[type];
  const buf = Buffer.alloc(bytes * blocks);
  for (let i = 0; i + 4 <= buf.length; i += 4) buf.writeUInt32LE(next(), i);
  for (let b = 0; b < blocks; b++) {
    const o = b * bytes;
    if (type === TYPE.Q4_K) {
      buf.writeUInt16LE(f16(0.002), o); // d
      buf.writeUInt16LE(f16(0.001), o + 2); // dmin
    } else if (type === TYPE.Q6_K) {
      buf.writeUInt16LE(f16(0.0005), o + 208); // d (last)
    } else if (type === TYPE.Q8_0 || type === TYPE.Q5_0) {
      buf.writeUInt16LE(f16(0.0005), o);
    }
  }
  return buf;
}

/** Q4_K_M's choice per tensor (llama.cpp's llama_tensor_get_type): more bits for some layers. */
function quantType(name, layer, layers, quant) {
  if (quant === 'f32') return TYPE.F32;
  if (!name.endsWith('.weight') || name.includes('norm')) return TYPE.F32;
  if (name === 'token_embd.weight') return TYPE.Q6_K; // tied with the output: the output's type
  const moreBits =
    layer < layers / 8 || layer >= (7 * layers) / 8 || (layer - Math.floor(layers / 8)) % 3 === 2;
  if ((name.endsWith('attn_v.weight') || name.endsWith('ffn_down.weight')) && moreBits) return TYPE.Q6_K;
  return TYPE.Q4_K;
}

function tensorList(p) {
  const head = p.hidden / p.heads;
  const kv = head * p.kvHeads;
  const list = [
    ['token_embd.weight', [p.hidden, p.vocabSize], -1],
    ['output_norm.weight', [p.hidden], -1],
  ];
  for (let i = 0; i < p.layers; i++) {
    const b = `blk.${i}.`;
    list.push(
      [`${b}attn_norm.weight`, [p.hidden], i],
      [`${b}attn_q.weight`, [p.hidden, p.hidden], i],
      [`${b}attn_q.bias`, [p.hidden], i],
      [`${b}attn_k.weight`, [p.hidden, kv], i],
      [`${b}attn_k.bias`, [kv], i],
      [`${b}attn_v.weight`, [p.hidden, kv], i],
      [`${b}attn_v.bias`, [kv], i],
      [`${b}attn_output.weight`, [p.hidden, p.hidden], i],
      [`${b}ffn_norm.weight`, [p.hidden], i],
      [`${b}ffn_gate.weight`, [p.hidden, p.ffn], i],
      [`${b}ffn_up.weight`, [p.hidden, p.ffn], i],
      [`${b}ffn_down.weight`, [p.ffn, p.hidden], i],
    );
  }
  return list.map(([name, dims, layer]) => {
    let type = quantType(name, layer, p.layers, p.quant);
    // Rows that do not fill 256-value blocks fall back as llama.cpp's quantizer does: Q4_K → Q5_0, Q6_K → Q8_0.
    if (dims[0] % 256 && type === TYPE.Q4_K) type = TYPE.Q5_0;
    if (dims[0] % 256 && type === TYPE.Q6_K) type = TYPE.Q8_0;
    const [bytes, per] = BLOCK[type];
    const count = dims.reduce((a, b) => a * b, 1);
    if (count % per) throw new Error(`${name}: ${count} values do not fill ${per}-value blocks`);
    return { name, dims, type, size: (count / per) * bytes };
  });
}

class Out {
  parts = [];
  u32(v) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.parts.push(b);
  }
  i32(v) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.parts.push(b);
  }
  u64(v) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.parts.push(b);
  }
  f32(v) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.parts.push(b);
  }
  str(s) {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.parts.push(b);
  }
  kv(key, type, value) {
    this.str(key);
    this.u32(type);
    if (type === GGUF.STRING) this.str(value);
    else if (type === GGUF.UINT32) this.u32(value);
    else if (type === GGUF.FLOAT32) this.f32(value);
    else if (type === GGUF.BOOL) this.parts.push(Buffer.from([value ? 1 : 0]));
  }
  array(key, type, values) {
    this.str(key);
    this.u32(GGUF.ARRAY);
    this.u32(type);
    this.u64(values.length);
    for (const v of values) {
      if (type === GGUF.STRING) this.str(v);
      else this.i32(v);
    }
  }
  buffer() {
    return Buffer.concat(this.parts);
  }
}

/**
 * Writes the model to `out` (through a temporary file, then one rename). Returns its size and the
 * ids of the control tokens.
 */
export async function makeLlmModel(out, { preset = 'test', seed = 1, contextLength = 32_768 } = {}) {
  const base = PRESETS[preset];
  if (!base) throw new Error(`unknown preset ${preset}: ${Object.keys(PRESETS).join(', ')}`);
  const vocab = vocabulary(base);
  const p = { ...base, vocabSize: vocab.tokens.length };
  const tensors = tensorList(p);
  const head = new Out();
  const arch = 'qwen2';
  const kvs = [
    ['general.architecture', GGUF.STRING, arch],
    ['general.name', GGUF.STRING, `ClipScribe random-weight ${preset}`],
    ['general.file_type', GGUF.UINT32, FILE_TYPE[p.quant]],
    ['general.quantization_version', GGUF.UINT32, 2],
    [`${arch}.context_length`, GGUF.UINT32, contextLength],
    [`${arch}.embedding_length`, GGUF.UINT32, p.hidden],
    [`${arch}.block_count`, GGUF.UINT32, p.layers],
    [`${arch}.feed_forward_length`, GGUF.UINT32, p.ffn],
    [`${arch}.attention.head_count`, GGUF.UINT32, p.heads],
    [`${arch}.attention.head_count_kv`, GGUF.UINT32, p.kvHeads],
    [`${arch}.rope.freq_base`, GGUF.FLOAT32, 1_000_000],
    [`${arch}.attention.layer_norm_rms_epsilon`, GGUF.FLOAT32, 1e-6],
    ['tokenizer.ggml.model', GGUF.STRING, 'gpt2'],
    ['tokenizer.ggml.pre', GGUF.STRING, 'qwen2'],
    ['tokenizer.ggml.eos_token_id', GGUF.UINT32, vocab.eos],
    ['tokenizer.ggml.bos_token_id', GGUF.UINT32, vocab.bos],
    ['tokenizer.ggml.padding_token_id', GGUF.UINT32, vocab.pad],
    ['tokenizer.ggml.add_bos_token', GGUF.BOOL, false],
    ['tokenizer.chat_template', GGUF.STRING, CHAT_TEMPLATE],
  ];
  head.u32(0x46554747); // "GGUF"
  head.u32(3);
  head.u64(tensors.length);
  head.u64(kvs.length + 3);
  for (const [k, t, v] of kvs) head.kv(k, t, v);
  head.array('tokenizer.ggml.tokens', GGUF.STRING, vocab.tokens);
  head.array('tokenizer.ggml.token_type', GGUF.INT32, vocab.types);
  head.array('tokenizer.ggml.merges', GGUF.STRING, vocab.merges);
  let offset = 0;
  for (const t of tensors) {
    head.str(t.name);
    head.u32(t.dims.length);
    for (const d of t.dims) head.u64(d);
    head.u32(t.type);
    head.u64(offset);
    t.offset = offset;
    offset += Math.ceil(t.size / ALIGN) * ALIGN;
  }
  let header = head.buffer();
  header = Buffer.concat([header, Buffer.alloc((ALIGN - (header.length % ALIGN)) % ALIGN)]);

  const tmp = `${out}.tmp-${process.pid}`;
  const fh = await open(tmp, 'w');
  try {
    await fh.write(header);
    const next = rng(seed);
    // One random pattern per type (1 MB of blocks), repeated: matrix speed does not depend on values.
    const patterns = {};
    for (const t of tensors) {
      let data;
      if (t.type === TYPE.F32) {
        const n = t.size / 4;
        data = Buffer.alloc(t.size);
        const isNorm = t.name.includes('norm');
        for (let i = 0; i < n; i++)
          data.writeFloatLE(isNorm ? 1 : ((next() / 0xffffffff) * 2 - 1) * 0.08, i * 4);
      } else {
        const [bytes] = BLOCK[t.type];
        patterns[t.type] ??= blockPattern(t.type, next, Math.floor((1 << 20) / bytes));
        const pat = patterns[t.type];
        data = Buffer.alloc(t.size);
        for (let o = 0; o < t.size; o += pat.length) pat.copy(data, o, 0, Math.min(pat.length, t.size - o));
      }
      await fh.write(data);
      const pad = Math.ceil(t.size / ALIGN) * ALIGN - t.size;
      if (pad) await fh.write(Buffer.alloc(pad));
    }
    await fh.close();
    await rename(tmp, out);
  } catch (err) {
    await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw err;
  }
  return { bytes: header.length + offset, eos: vocab.eos, vocab: vocab.tokens.length };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const out = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
  const flag = (name) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (!out) {
    console.error(
      `usage: node scripts/make-llm-model.mjs <out.gguf> [--preset ${Object.keys(PRESETS).join('|')}] [--seed N]`,
    );
    process.exit(2);
  }
  const started = Date.now();
  const r = await makeLlmModel(path.resolve(out), {
    preset: flag('preset') ?? 'test',
    seed: Number(flag('seed') ?? 1),
  });
  console.log(`${out}: ${(r.bytes / 1e6).toFixed(1)} MB, ${r.vocab} tokens, in ${Date.now() - started} ms`);
}
