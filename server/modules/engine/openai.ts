// The `openai` engine: any server speaking OpenAI's speech-to-text API (OpenAI, Groq, speaches,
// whisper.cpp's server). The decoded PCM is re-encoded by ffmpeg into MP3 chunks that each fit
// the upload limit, every chunk is posted in turn, and the chunk's offset is added back to the
// segment times it returns.
//
// Base URL: both spellings are accepted. `https://api.openai.com` and `https://api.openai.com/v1`
// (the OpenAI SDKs' convention, also Groq's `https://api.groq.com/openai/v1`) reach the same
// endpoint: `/v1` is appended only when the URL does not already end with it.

import { spawnTied } from '../../process/tied-spawn';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isWhisperLanguage, type WhisperLanguage } from '../../../common/whisper-languages';
import { PCM_BYTES_PER_SECOND } from '../media/decode';
import { createSegmentStream } from './segment-stream';
import {
  EngineError,
  type Engine,
  type EngineAudio,
  type Segment,
  type TranscribeOptions,
  type TranscribeResult,
} from './types';

export interface OpenAiEngineOptions {
  /** e.g. `https://api.openai.com/v1`, `https://api.groq.com/openai/v1`, `http://speaches:8000`. */
  baseUrl: string;
  apiKey?: string;
  /** e.g. `whisper-1`, `whisper-large-v3-turbo` (Groq), `Systran/faster-whisper-small` (speaches). */
  model: string;
  /** Largest file uploaded; default 24 MiB, under OpenAI's 25 MB limit. */
  maxUploadBytes?: number;
  /**
   * Longest chunk sent, default 600 s: progress moves at least every ten minutes of audio, a
   * failed request costs little to redo, and gpt-4o-transcribe's 1500 s cap is respected.
   */
  maxChunkSec?: number;
  ffmpegPath?: string;
  /** Per request (upload and answer); default 5 minutes. */
  timeoutMs?: number;
  /** Parent of the per-job working directory; default the OS temp dir. */
  tempDir?: string;
  /**
   * Ask for `diarized_json` (speaker-labelled segments, OpenAI's gpt-4o-transcribe-diarize);
   * default: when the model's name says it diarizes.
   */
  diarize?: boolean;
  fetch?: typeof fetch;
}

// MP3 at a constant bitrate: accepted by every compatible server (whisper.cpp's reads mp3 but
// not Ogg/Opus without --convert), and its size is a predictable function of its duration.
const BITRATE_KBPS = 32;
const BYTES_PER_SEC = (BITRATE_KBPS * 1000) / 8;
const DEFAULT_MAX_UPLOAD = 24 * 1024 * 1024;
const MIN_UPLOAD = 16 * 1024;
const DEFAULT_MAX_CHUNK_SEC = 600;
const DEFAULT_TIMEOUT_MS = 5 * 60_000;
// Room for the encoder's frame rounding and the Xing header.
const SIZE_SAFETY = 0.9;
const HEADER_ALLOWANCE = 4096;
// Below this a chunk that is still too large means something other than duration is wrong.
const MIN_SPLIT_SEC = 2;
// Whisper conditions on at most 224 prompt tokens; a sentence or two of context is enough.
const PROMPT_CHARS = 200;
const MAX_ERROR_DETAIL = 300;

// Whisper's own names (openai/whisper tokenizer.py) and their aliases: verbose_json reports
// `language` as a lower-case English name such as "english" or "haitian creole".
const LANGUAGE_NAMES: Record<WhisperLanguage, string> = {
  en: 'english',
  zh: 'chinese',
  de: 'german',
  es: 'spanish',
  ru: 'russian',
  ko: 'korean',
  fr: 'french',
  ja: 'japanese',
  pt: 'portuguese',
  tr: 'turkish',
  pl: 'polish',
  ca: 'catalan',
  nl: 'dutch',
  ar: 'arabic',
  sv: 'swedish',
  it: 'italian',
  id: 'indonesian',
  hi: 'hindi',
  fi: 'finnish',
  vi: 'vietnamese',
  he: 'hebrew',
  uk: 'ukrainian',
  el: 'greek',
  ms: 'malay',
  cs: 'czech',
  ro: 'romanian',
  da: 'danish',
  hu: 'hungarian',
  ta: 'tamil',
  no: 'norwegian',
  th: 'thai',
  ur: 'urdu',
  hr: 'croatian',
  bg: 'bulgarian',
  lt: 'lithuanian',
  la: 'latin',
  mi: 'maori',
  ml: 'malayalam',
  cy: 'welsh',
  sk: 'slovak',
  te: 'telugu',
  fa: 'persian',
  lv: 'latvian',
  bn: 'bengali',
  sr: 'serbian',
  az: 'azerbaijani',
  sl: 'slovenian',
  kn: 'kannada',
  et: 'estonian',
  mk: 'macedonian',
  br: 'breton',
  eu: 'basque',
  is: 'icelandic',
  hy: 'armenian',
  ne: 'nepali',
  mn: 'mongolian',
  bs: 'bosnian',
  kk: 'kazakh',
  sq: 'albanian',
  sw: 'swahili',
  gl: 'galician',
  mr: 'marathi',
  pa: 'punjabi',
  si: 'sinhala',
  km: 'khmer',
  sn: 'shona',
  yo: 'yoruba',
  so: 'somali',
  af: 'afrikaans',
  oc: 'occitan',
  ka: 'georgian',
  be: 'belarusian',
  tg: 'tajik',
  sd: 'sindhi',
  gu: 'gujarati',
  am: 'amharic',
  yi: 'yiddish',
  lo: 'lao',
  uz: 'uzbek',
  fo: 'faroese',
  ht: 'haitian creole',
  ps: 'pashto',
  tk: 'turkmen',
  nn: 'nynorsk',
  mt: 'maltese',
  sa: 'sanskrit',
  lb: 'luxembourgish',
  my: 'myanmar',
  bo: 'tibetan',
  tl: 'tagalog',
  mg: 'malagasy',
  as: 'assamese',
  tt: 'tatar',
  haw: 'hawaiian',
  ln: 'lingala',
  ha: 'hausa',
  ba: 'bashkir',
  jw: 'javanese',
  su: 'sundanese',
  yue: 'cantonese',
};

const LANGUAGE_ALIASES: Record<string, WhisperLanguage> = {
  burmese: 'my',
  valencian: 'ca',
  flemish: 'nl',
  haitian: 'ht',
  letzeburgesch: 'lb',
  pushto: 'ps',
  panjabi: 'pa',
  moldavian: 'ro',
  moldovan: 'ro',
  sinhalese: 'si',
  castilian: 'es',
  mandarin: 'zh',
  'norwegian nynorsk': 'nn',
  'norwegian bokmål': 'no',
};

const CODE_BY_NAME = new Map<string, WhisperLanguage>([
  ...Object.entries(LANGUAGE_NAMES).map(([code, name]) => [name, code as WhisperLanguage] as const),
  ...Object.entries(LANGUAGE_ALIASES),
]);

/** Whisper code for what a server reports: a code ("en", "en-US"), a name ("English"), or null. */
export function toWhisperCode(reported: unknown): WhisperLanguage | null {
  if (typeof reported !== 'string') return null;
  const value = reported.trim().toLowerCase();
  if (isWhisperLanguage(value)) return value;
  const byName = CODE_BY_NAME.get(value);
  if (byName) return byName;
  const primary = value.split(/[-_]/)[0];
  if (primary === 'jv') return 'jw';
  return isWhisperLanguage(primary) ? primary : null;
}

/** The endpoint for `path` (e.g. `audio/transcriptions`), with `/v1` added once. */
export function endpointUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return /\/v1$/.test(base) ? `${base}/${path}` : `${base}/v1/${path}`;
}

export interface AudioRange {
  start: number;
  duration: number;
}

interface Chunk extends AudioRange {
  path: string;
}

interface VerboseJson {
  language?: unknown;
  text?: unknown;
  segments?: unknown;
  /** With timestamp_granularities[]=word: [{ word, start, end }] for the whole chunk. */
  words?: unknown;
}

/** Whether a model's name says it labels speakers (e.g. gpt-4o-transcribe-diarize). */
export const isDiarizingModel = (model: string): boolean => /diariz/i.test(model);

interface ChunkRequest {
  language: string;
  translate: boolean;
  prompt: string;
  /** Ask for word timestamps too. */
  words: boolean;
}

export function createOpenAiEngine(options: OpenAiEngineOptions): Engine {
  const maxUploadBytes = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD;
  if (!(maxUploadBytes >= MIN_UPLOAD)) {
    throw new TypeError(`openai engine: maxUploadBytes must be at least ${MIN_UPLOAD}`);
  }
  const ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? globalThis.fetch;
  // Longest chunk whose MP3 fits the upload limit at the fixed bitrate, with a margin.
  const chunkSec = Math.min(
    options.maxChunkSec ?? DEFAULT_MAX_CHUNK_SEC,
    Math.floor((maxUploadBytes * SIZE_SAFETY - HEADER_ALLOWANCE) / BYTES_PER_SEC),
  );
  if (!(chunkSec >= 1)) throw new TypeError('openai engine: maxChunkSec must be at least 1');
  // Servers may echo the key ("Incorrect API key provided: sk-…"): it never leaves this module.
  const redact = (text: string): string =>
    options.apiKey ? text.split(options.apiKey).join('[redacted]') : text;
  // Word timestamps are asked for until the server refuses them once (not every compatible
  // server knows timestamp_granularities[]=word).
  let askWords = true;
  const diarize = options.diarize ?? isDiarizingModel(options.model);

  async function transcribe(audio: EngineAudio, opts: TranscribeOptions): Promise<TranscribeResult> {
    const { language, translate = false, signal } = opts;
    if (language !== 'auto' && !isWhisperLanguage(language)) {
      throw new EngineError('unsupported_language', `Unsupported language: ${language}`);
    }
    if (signal?.aborted) throw canceled();

    // Plan on the PCM actually present; clamp times to the duration the caller measured.
    const pcmSec = (await stat(audio.pcmPath)).size / PCM_BYTES_PER_SECOND;
    const limit = Math.max(0, audio.durationSec);
    const ranges = planRanges(pcmSec, chunkSec);

    // One controller for everything in flight (fetch and ffmpeg), fired by the caller's signal
    // and by our own exit, so nothing outlives this call.
    const inner = new AbortController();
    const onAbort = () => inner.abort();
    signal?.addEventListener('abort', onAbort, { once: true });

    const workDir = await mkdtemp(join(options.tempDir ?? tmpdir(), 'clipscribe-openai-'));
    const inFlight: Promise<unknown>[] = [];
    const stream = createSegmentStream(limit, opts.onSegment);
    const heard = new Map<WhisperLanguage, number>();
    let fileIndex = 0;
    let prompt = '';
    let progress = 0;

    const prepare = (range: AudioRange): Promise<Chunk[]> => {
      const nextPath = () => join(workDir, `chunk-${fileIndex++}.mp3`);
      const p = encodeFitting(audio.pcmPath, range, nextPath, inner.signal);
      inFlight.push(p.catch(() => undefined));
      return p;
    };

    try {
      // Encode the next range while the current one is uploading.
      let next = ranges[0] ? prepare(ranges[0]) : null;
      for (let i = 0; next; i++) {
        const chunks = await next;
        const following = ranges[i + 1];
        next = following ? prepare(following) : null;

        for (const chunk of chunks) {
          let body: VerboseJson;
          try {
            body = await postChunk(chunk, { language, translate, prompt, words: askWords }, inner.signal);
          } catch (err) {
            if (!(
              askWords &&
              err instanceof EngineError &&
              err.code === 'remote_rejected' &&
              /granularit|word/i.test(err.message)
            ))
              throw err;
            askWords = false;
            body = await postChunk(chunk, { language, translate, prompt, words: false }, inner.signal);
          }
          await rm(chunk.path, { force: true });

          const code = toWhisperCode(body.language);
          if (code) heard.set(code, (heard.get(code) ?? 0) + chunk.duration);
          // A diarizing server labels speakers per request ('A', 'B', …): the same letter in
          // another chunk may be someone else, so labels are kept apart per chunk.
          const found = toSegments(body, chunk, limit, ranges.length > 1 ? `c${i + 1}-` : '');
          for (const segment of found) stream.push(segment);
          // Whisper continues a split recording better when told how the previous part ended.
          if (found.length > 0) prompt = tail(found.map((s) => s.text).join(' '), PROMPT_CHARS);

          // 100 is kept for the end, after the last segment is out.
          progress = Math.max(
            progress,
            Math.min(99, Math.floor(((chunk.start + chunk.duration) / pcmSec) * 100)),
          );
          opts.onProgress?.(progress);
        }
      }
      opts.onProgress?.(100);
    } catch (err) {
      if (signal?.aborted) throw canceled();
      throw err;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      inner.abort();
      await Promise.all(inFlight);
      await rm(workDir, { recursive: true, force: true });
    }

    return {
      // A translation always reports "english" (its output), so only a transcription's detection
      // says what was spoken; a requested language is taken as given.
      language: language !== 'auto' ? (language as WhisperLanguage) : translate ? null : mostHeard(heard),
      segments: stream.segments,
      speechRegions: null,
    };
  }

  /** Encodes a range; if the MP3 still exceeds the limit, halves the range until it fits. */
  async function encodeFitting(
    pcmPath: string,
    range: AudioRange,
    nextPath: () => string,
    signal: AbortSignal,
  ): Promise<Chunk[]> {
    const path = nextPath();
    await encode(ffmpegPath, pcmPath, range, path, signal);
    const { size } = await stat(path);
    if (size <= maxUploadBytes) return [{ ...range, path }];
    await rm(path, { force: true });
    const half = range.duration / 2;
    if (half < MIN_SPLIT_SEC) {
      throw new EngineError(
        'engine_crashed',
        `Encoded audio of ${size} bytes does not fit ${maxUploadBytes}`,
      );
    }
    const first = await encodeFitting(pcmPath, { start: range.start, duration: half }, nextPath, signal);
    const second = await encodeFitting(
      pcmPath,
      { start: range.start + half, duration: half },
      nextPath,
      signal,
    );
    return [...first, ...second];
  }

  async function postChunk(chunk: Chunk, req: ChunkRequest, signal: AbortSignal): Promise<VerboseJson> {
    const form = new FormData();
    // A file-backed Blob: the chunk is streamed from disk, not read into memory.
    form.append('file', await openAsBlob(chunk.path, { type: 'audio/mpeg' }), 'audio.mp3');
    form.append('model', options.model);
    if (diarize && !req.translate) {
      // Diarizing models take neither a prompt nor timestamp granularities, and need a
      // chunking strategy for anything over 30 s.
      form.append('response_format', 'diarized_json');
      form.append('chunking_strategy', 'auto');
      if (req.language !== 'auto') form.append('language', req.language);
    } else {
      form.append('response_format', 'verbose_json');
    }
    if (req.prompt && !(diarize && !req.translate)) form.append('prompt', req.prompt);
    if (!req.translate && !diarize) {
      // Translations document neither: their output is English and verbose_json has segments.
      form.append('timestamp_granularities[]', 'segment');
      if (req.words) form.append('timestamp_granularities[]', 'word');
      if (req.language !== 'auto') form.append('language', req.language);
    }
    const url = endpointUrl(options.baseUrl, req.translate ? 'audio/translations' : 'audio/transcriptions');
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

    const timeout = AbortSignal.timeout(timeoutMs);
    const where = describeUrl(url);
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers,
        body: form,
        signal: AbortSignal.any([signal, timeout]),
      });
      text = await response.text();
    } catch (err) {
      if (signal.aborted) throw canceled();
      if (timeout.aborted) {
        throw new EngineError('remote_error', `${where} did not answer within ${timeoutMs} ms`, true);
      }
      throw new EngineError('remote_error', redact(`${where} unreachable: ${networkReason(err)}`), true);
    }

    if (!response.ok) {
      const detail = redact(errorDetail(text));
      const message = `${where} answered ${response.status}${detail ? `: ${detail}` : ''}`;
      // 5xx, 429 and 408 mean "try later"; any other 4xx would fail the same way every time.
      if (response.status >= 500 || response.status === 429 || response.status === 408) {
        const retryAfter = response.headers.get('retry-after');
        const hint = retryAfter ? ` (retry after ${retryAfter.slice(0, 40)})` : '';
        throw new EngineError('remote_error', message + hint, true);
      }
      throw new EngineError('remote_rejected', message);
    }
    try {
      const body: unknown = JSON.parse(text);
      if (body && typeof body === 'object') return body as VerboseJson;
    } catch {
      // Falls through: a proxy's HTML page or a cut-off answer.
    }
    throw new EngineError(
      'remote_error',
      `${where} answered ${response.status} with something other than JSON`,
      true,
    );
  }

  return { name: 'openai', transcribe };
}

/** Equal ranges no longer than `maxSec`: no few-second tail, on which Whisper tends to invent. */
export function planRanges(totalSec: number, maxSec: number): AudioRange[] {
  // OpenAI refuses anything under 0.1 s; there is nothing to hear in it anyway.
  if (!(totalSec >= 0.1)) return [];
  const count = Math.ceil(totalSec / maxSec - 1e-9);
  const size = totalSec / count;
  return Array.from({ length: count }, (_, i) => ({
    start: i * size,
    duration: i === count - 1 ? totalSec - i * size : size,
  }));
}

function encode(ffmpegPath: string, pcmPath: string, range: AudioRange, out: string, signal: AbortSignal) {
  // Input-side -ss/-t on raw PCM seek by byte offset, without decoding what comes before.
  // The output is CBR MP3, mono 16 kHz, without metadata: its size follows its duration.
  const args = [
    ['-hide_banner', '-nostdin', '-loglevel', 'error'],
    ['-f', 's16le', '-ar', '16000', '-ac', '1'],
    ['-ss', range.start.toFixed(3), '-t', range.duration.toFixed(3), '-i', pcmPath],
    ['-map_metadata', '-1', '-c:a', 'libmp3lame', '-b:a', `${BITRATE_KBPS}k`, '-ar', '16000', '-ac', '1'],
    ['-f', 'mp3', '-y', out],
  ].flat();
  return new Promise<void>((resolve, reject) => {
    const child = spawnTied(ffmpegPath, args, { stdio: ['ignore', 'ignore', 'pipe'], signal });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (data: string) => {
      stderr = (stderr + data).slice(-1000);
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (signal.aborted) reject(canceled());
      else if (err.code === 'ENOENT')
        reject(new EngineError('engine_crashed', `ffmpeg not found: ${ffmpegPath}`));
      else reject(new EngineError('engine_crashed', `ffmpeg failed: ${err.message}`, true));
    });
    child.on('close', (code) => {
      if (code === 0) resolve();
      else if (signal.aborted) reject(canceled());
      else reject(new EngineError('engine_crashed', `ffmpeg exited with ${code}: ${stderr.trim()}`, true));
    });
  });
}

/** A response's segments, moved to the chunk's place in the media and kept inside it. */
function toSegments(body: VerboseJson, chunk: Chunk, limit: number, labelPrefix = ''): Segment[] {
  const chunkEnd = chunk.start + chunk.duration;
  const place = (value: unknown, fallback: number): number => {
    const t = typeof value === 'number' && Number.isFinite(value) ? chunk.start + value : fallback;
    return Math.min(Math.max(t, chunk.start, 0), chunkEnd, limit);
  };
  const out: Segment[] = [];
  if (Array.isArray(body.segments)) {
    for (const raw of body.segments as unknown[]) {
      if (!raw || typeof raw !== 'object') continue;
      const { start, end, text, speaker } = raw as {
        start?: unknown;
        end?: unknown;
        text?: unknown;
        speaker?: unknown;
      };
      const trimmed = typeof text === 'string' ? text.trim() : '';
      if (!trimmed) continue;
      const s = place(start, chunk.start);
      const seg: Segment = { start: s, end: Math.max(s, place(end, chunkEnd)), text: trimmed };
      // diarized_json: a speaker label (a letter, or a name the caller gave); the job names them.
      const label = typeof speaker === 'string' ? speaker.trim().slice(0, 80) : '';
      out.push(label ? { ...seg, speaker: labelPrefix + label } : seg);
    }
  }
  // Some servers (whisper.cpp without segments, speaches on occasion) only give the text.
  if (out.length === 0 && typeof body.text === 'string' && body.text.trim()) {
    out.push({ start: place(0, chunk.start), end: place(chunk.duration, chunkEnd), text: body.text.trim() });
  }
  // Word timestamps come as one list for the chunk: each word goes to the segment its middle is in.
  if (Array.isArray(body.words) && out.length > 0) {
    for (const raw of body.words as unknown[]) {
      if (!raw || typeof raw !== 'object') continue;
      const { word, start, end } = raw as { word?: unknown; start?: unknown; end?: unknown };
      const text = typeof word === 'string' ? word.trim() : '';
      if (!text || typeof start !== 'number' || typeof end !== 'number') continue;
      const w = { start: place(start, chunk.start), end: place(end, chunkEnd), text };
      const mid = (w.start + w.end) / 2;
      const seg =
        out.find((s) => mid >= s.start && mid <= s.end) ??
        out.find((s) => w.start < s.end) ??
        out[out.length - 1]!;
      (seg.words ??= []).push({ ...w, end: Math.max(w.start, w.end) });
    }
  }
  return out;
}

function mostHeard(heard: Map<WhisperLanguage, number>): WhisperLanguage | null {
  let best: WhisperLanguage | null = null;
  let bestSec = -1;
  for (const [code, sec] of heard) {
    if (sec > bestSec) [best, bestSec] = [code, sec];
  }
  return best;
}

/** The last `max` characters of `text`, starting on a word. */
function tail(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(-max);
  const space = cut.indexOf(' ');
  return space >= 0 ? cut.slice(space + 1) : cut;
}

/** The server's own words: OpenAI's {error:{message}}, FastAPI's {detail}, or the raw body. */
function errorDetail(text: string): string {
  let detail = text;
  try {
    const body = JSON.parse(text) as { error?: unknown; detail?: unknown; message?: unknown };
    const error = body.error;
    const found =
      error && typeof error === 'object' && 'message' in error
        ? (error as { message: unknown }).message
        : (error ?? body.detail ?? body.message);
    if (found !== undefined) detail = typeof found === 'string' ? found : JSON.stringify(found);
  } catch {
    // Not JSON: the raw text is all there is.
  }
  detail = detail.replace(/\s+/g, ' ').trim();
  return detail.length > MAX_ERROR_DETAIL ? `${detail.slice(0, MAX_ERROR_DETAIL)}…` : detail;
}

/** Origin and path only: no credentials from the URL, no query. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return 'the transcription server';
  }
}

function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

function canceled(): EngineError {
  return new EngineError('canceled', 'Transcription canceled');
}
