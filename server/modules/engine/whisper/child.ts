// Child-process entry of the whisper engine: one process per job, one model context per process,
// so a native crash, a hang or a kill never touches the server.
//
//   node [--import tsx] child.ts '<ChildJob JSON>'
//
// Messages to the parent are newline-delimited JSON written with fs.writeSync to fd 3 (a pipe the
// parent opens). @napi-rs/whisper's full() is synchronous and its callbacks are thread-safe
// functions that only run once full() has returned (measured: onProgress/onNewSegment never fire
// during the call), so nothing here may rely on the event loop while a chunk is being decoded.
//
// The job: find the speech (Silero VAD, a block of audio ahead of the transcription at a time),
// give whisper.cpp only the speech regions one after another, in chunks (a short first one so the
// first words arrive fast, then sized from the measured speed), ending chunks at the seams between
// regions when it can; ask for one segment per word, map every word back to the original timeline
// and regroup the words into sentences.
// First: where the kernel cannot end this process with its parent, it ends itself.
import '../../../process/lifeline';
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import os from 'node:os';
import { Whisper, WhisperFullParams, WhisperSamplingStrategy } from '@napi-rs/whisper';
import { createWordGrouper, type RawWord } from '../../../../common/word-groups';
import type { Segment } from '../../../../common/segments';
import { settledRegions, SpeechTimeline, type Region } from '../speech/regions';
import { SpeechDetector } from '../speech/vad';
import { checkModelFile } from './model-file';
import { checkDiarizationModels, diarize, type DiarizeJob } from '../diarization/diarize';
import type { SpeakerTurn } from '../../../../common/speakers';

export interface ChildJob {
  modelPath: string;
  pcmPath: string;
  durationSec: number;
  /** A Whisper code or 'auto' (validated by the parent). */
  language: string;
  translate: boolean;
  threads?: number;
  temperature?: number;
  /** Longest chunk of audio given to one full() call, in seconds. */
  maxChunkSec: number;
  /** Compute time one chunk should take, in seconds: chunks are sized from the measured speed. */
  targetChunkComputeSec: number;
  /** Detect speech first and transcribe only it (default true). */
  detectSpeech?: boolean;
  /** One segment per word from whisper.cpp, regrouped into sentences (default true). */
  words?: boolean;
  /** Audio in the first chunk, in seconds (short, so the first words come quickly). */
  firstChunkSec?: number;
  /** Identify speakers once the words are out (sherpa-onnx diarization). */
  diarize?: DiarizeJob;
}

export type ChildMessage =
  | { t: 'loaded'; ms: number }
  | { t: 'stage'; stage: 'detecting' | 'transcribing' }
  /** Speech regions settled so far (original timeline), in order; sent as they settle. */
  | { t: 'regions'; regions: Region[] }
  /** A chunk starts: what it covers on the original timeline, and the speed measured so far. */
  | { t: 'chunk'; from: number; to: number; audioSec: number; speed: number | null }
  | { t: 'progress'; percent: number; speed: number }
  | { t: 'language'; code: string }
  | { t: 'segment'; start: number; end: number; text: string; words?: Segment['words'] }
  /** Speaker diarization starts (its native library loads the models now). */
  | { t: 'diarizing' }
  | { t: 'speakers'; turns: SpeakerTurn[] }
  | { t: 'done'; language: string | null }
  | { t: 'error'; code: 'model_invalid' | 'model_missing' | 'audio_unreadable'; message: string };

const SAMPLE_RATE = 16000;
const OUT_FD = 3;
/** whisper.cpp returns nothing for less than 100 ms of audio. */
const MIN_SAMPLES = SAMPLE_RATE / 10;
const DEFAULT_FIRST_CHUNK_SEC = 20;
const MIN_CHUNK_SEC = 30;
const PROMPT_CHARS = 200;
/** Audio analysed by the speech detector per step, ahead of the transcription. */
const VAD_BLOCK_SEC = 60;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocking write of one message; fd 3 may be non-blocking, so EAGAIN means "wait and retry". */
function send(msg: ChildMessage): void {
  const buf = Buffer.from(`${JSON.stringify(msg)}\n`);
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(OUT_FD, buf, off, buf.length - off);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(sleeper, 0, 0, 5);
        continue;
      }
      // The parent is gone (EPIPE): nobody wants the rest of this job.
      process.exit(70);
    }
  }
}

/** The samples of the given original ranges, one after another, as float. */
function readRanges(fd: number, ranges: [number, number][]): Float32Array {
  const total = ranges.reduce((n, [a, b]) => n + (b - a), 0);
  const out = new Float32Array(total);
  let at = 0;
  for (const [from, to] of ranges) {
    const bytes = (to - from) * 2;
    const buf = Buffer.allocUnsafeSlow(bytes);
    let got = 0;
    while (got < bytes) {
      const n = readSync(fd, buf, got, bytes - got, from * 2 + got);
      if (n === 0) break;
      got += n;
    }
    const pcm = new Int16Array(buf.buffer, buf.byteOffset, got >> 1);
    for (let i = 0; i < pcm.length; i++) out[at + i] = pcm[i]! / 32768;
    at += to - from;
  }
  return out;
}

const squash = (s: string) => s.replace(/\s+/g, '');
const round3 = (x: number) => Math.round(x * 1000) / 1000;

interface RawSegment {
  text: string;
  /** Centiseconds from the start of the chunk, as whisper.cpp counts. */
  start: number;
  end: number;
}

const SENTENCE_END = /[.!?。！？…]["'”’)\]]*$/u;

/**
 * Where to end a chunk whose audio was cut mid-speech: before the last sentence (or, failing
 * that, the last word), in speech seconds from the chunk's start. The part after it is decoded
 * again at the start of the next chunk, so no word is cut at a seam.
 */
function seamCut(words: RawSegment[], chunkSec: number): number | null {
  for (let i = words.length - 1; i > 0; i--) {
    const start = words[i]!.start / 100;
    if (start < chunkSec / 2) break;
    const prev = words[i - 1]!;
    const pause = start - prev.end / 100;
    if (SENTENCE_END.test(prev.text.trim()) || pause >= 0.5) return start;
  }
  const last = words[words.length - 1];
  return last && last.start / 100 >= chunkSec / 2 ? last.start / 100 : null;
}

async function run(job: ChildJob): Promise<void> {
  const check = checkModelFile(job.modelPath);
  if (!check.ok) {
    send({ t: 'error', code: 'model_invalid', message: `${job.modelPath}: ${check.reason}` });
    return;
  }
  // The speaker models are checked before any work: a job that asked for speakers fails fast.
  if (job.diarize) {
    const models = checkDiarizationModels(job.diarize);
    if (!models.ok) {
      send({ t: 'error', code: models.code, message: `speaker diarization: ${models.reason}` });
      return;
    }
  }

  let fd: number;
  let totalSamples: number;
  try {
    fd = openSync(job.pcmPath, 'r');
    totalSamples = Math.floor(fstatSync(fd).size / 2);
  } catch (err) {
    send({ t: 'error', code: 'audio_unreadable', message: (err as Error).message });
    return;
  }
  // Times never pass the end of the audio: the decoded PCM or the caller's duration, whichever is shorter.
  const fileSec = totalSamples / SAMPLE_RATE;
  const limitSec = job.durationSec > 0 ? Math.min(job.durationSec, fileSec) : fileSec;
  const useVad = job.detectSpeech !== false;
  const wordMode = job.words !== false;

  // The speech timeline grows as the detector settles regions; without detection it is the whole file.
  const timeline = new SpeechTimeline(useVad ? [] : [{ start: 0, end: fileSec }]);
  let detector: SpeechDetector | null = null;
  if (useVad) {
    send({ t: 'stage', stage: 'detecting' });
    detector = await SpeechDetector.open(job.pcmPath);
  }
  /** Analyses more audio and appends the regions that settled. */
  const detectMore = async () => {
    if (!detector || detector.finished) return false;
    await detector.advance(VAD_BLOCK_SEC);
    const { probs, frameSec } = detector.result;
    const settled = settledRegions(probs, frameSec, fileSec, detector.analysedSec).filter(
      (r) => r.start >= timeline.lastEnd - 1e-9,
    );
    for (const r of settled) timeline.append(r);
    if (settled.length > 0) send({ t: 'regions', regions: settled });
    return true;
  };
  const vadDone = () => !detector || detector.finished;

  let whisper: Whisper | null = null;
  let params: WhisperFullParams | null = null;
  let collected: RawSegment[] = [];
  let collectedText = '';
  let language: string | null = job.language === 'auto' ? null : job.language;

  const load = () => {
    const loadStarted = Date.now();
    const w = new Whisper(job.modelPath);
    send({ t: 'loaded', ms: Date.now() - loadStarted });
    const p = new WhisperFullParams(WhisperSamplingStrategy.Greedy);
    p.nThreads = job.threads ?? os.availableParallelism();
    p.translate = job.translate;
    p.language = job.language;
    p.temperature = job.temperature ?? 0;
    p.printProgress = false;
    p.printRealtime = false;
    p.printTimestamps = false;
    p.printSpecial = false;
    if (wordMode) {
      // One segment per word (verified on @napi-rs/whisper 0.0.4: tokenTimestamps, maxLen and
      // splitOnWord are whisper_full_params' token_timestamps, max_len and split_on_word).
      p.tokenTimestamps = true;
      p.maxLen = 1;
      p.splitOnWord = true;
    }
    p.onNewSegment = (s) => {
      collected.push({ text: s.text, start: s.start, end: s.end });
      collectedText += squash(s.text);
    };
    whisper = w;
    params = p;
  };

  const grouper = createWordGrouper();
  let lastEnd = 0;
  let prompt = '';
  const emit = (seg: Segment) => {
    const start = Math.max(lastEnd, round3(seg.start));
    const end = Math.min(limitSec, round3(seg.end));
    if (!seg.text || end - start < 0.01) return;
    const words = seg.words
      ?.map((w) => ({ start: Math.max(start, w.start), end: Math.min(end, w.end), text: w.text }))
      .filter((w) => w.text !== '');
    send({ t: 'segment', start, end, text: seg.text, ...(words?.length ? { words } : {}) });
    lastEnd = end;
    prompt = `${prompt} ${seg.text}`.slice(-PROMPT_CHARS).trim();
  };

  let pos = 0; // speech seconds already transcribed
  let chunkSec = Math.min(job.firstChunkSec ?? DEFAULT_FIRST_CHUNK_SEC, job.maxChunkSec);
  let speed: number | null = null;

  for (;;) {
    // Keep the detector a chunk ahead of the transcription.
    while (!vadDone() && timeline.speechSec - pos < chunkSec) await detectMore();
    const remaining = timeline.speechSec - pos;
    if (remaining * SAMPLE_RATE < MIN_SAMPLES && vadDone()) break;
    if (remaining * SAMPLE_RATE < MIN_SAMPLES) continue;

    let end = Math.min(timeline.speechSec, pos + chunkSec);
    // No short tail chunk: it would cost a model pass for a few seconds of audio.
    if (vadDone() && timeline.speechSec - end < chunkSec / 4) end = timeline.speechSec;
    // End on a seam between regions (a pause) when one is in the second half of the chunk.
    let clean = end >= timeline.speechSec && vadDone();
    if (!clean) {
      const seam = timeline
        .seams()
        .filter((s) => s > pos + (end - pos) / 2 && s <= end)
        .pop();
      if (seam !== undefined) {
        end = seam;
        clean = true;
      }
    }
    const ranges = timeline.sampleRanges(pos, end, SAMPLE_RATE);
    const samples = readRanges(fd, ranges);
    if (samples.length < MIN_SAMPLES) {
      pos = end;
      continue;
    }

    if (!whisper) {
      send({ t: 'stage', stage: 'transcribing' });
      try {
        load();
      } catch (err) {
        send({ t: 'error', code: 'model_invalid', message: `${job.modelPath}: ${(err as Error).message}` });
        return;
      }
    }
    const w = whisper as unknown as Whisper;
    const p = params as unknown as WhisperFullParams;
    send({
      t: 'chunk',
      from: timeline.toOriginal(pos, 'start'),
      to: timeline.toOriginal(end, 'end'),
      audioSec: end - pos,
      speed,
    });

    collected = [];
    collectedText = '';
    if (prompt) p.initialPrompt = prompt;
    const started = Date.now();
    const text = w.full(p, samples);
    const computeSec = Math.max(0.001, (Date.now() - started) / 1000);
    // The segment callbacks are queued behind full(); its return value is their concatenation,
    // so wait until they have all arrived (bounded, in case a segment was skipped).
    const target = squash(text);
    const deadline = Date.now() + 2000;
    while (collectedText.length < target.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    // And one more turn for segments without text, queued behind the last non-empty one.
    await new Promise((resolve) => setTimeout(resolve, 1));

    if (language === null) {
      const detected = Whisper.lang(w.fullLangId);
      if (detected) {
        language = detected;
        send({ t: 'language', code: detected });
        // Later chunks keep the language of the first one instead of re-detecting it each time.
        p.language = detected;
      }
    }

    // Whisper's times in this chunk, in speech seconds; a cut chunk drops its unfinished tail.
    const lengthSec = end - pos;
    let next = end;
    let pieces = collected;
    if (!clean && pieces.length >= 2) {
      const cut = wordMode ? seamCut(pieces, lengthSec) : pieces[pieces.length - 1]!.start / 100;
      if (cut !== null && cut >= lengthSec / 2 && cut < lengthSec) {
        pieces = pieces.filter((s) => s.start / 100 < cut);
        next = pos + cut;
      }
    }

    for (const s of pieces) {
      const a = Math.max(0, Math.min(lengthSec, s.start / 100));
      const b = Math.max(a, Math.min(lengthSec, s.end / 100));
      const span = timeline.spanToOriginal(pos + a, pos + b);
      if (wordMode) {
        // Whisper's word text keeps its leading space, which is how words are joined again.
        const word: RawWord = { start: span.start, end: span.end, text: s.text };
        if (!word.text.trim()) continue;
        for (const seg of grouper.push(word)) emit(seg);
      } else {
        const t = s.text.trim();
        if (t) emit({ start: span.start, end: span.end, text: t });
      }
    }

    // Size the next chunk from the measured speed, so that each one reports back in about
    // targetChunkComputeSec whatever the model and the machine.
    speed = (end - pos) / computeSec;
    chunkSec = Math.min(
      job.maxChunkSec,
      Math.max(Math.min(MIN_CHUNK_SEC, job.maxChunkSec), speed * job.targetChunkComputeSec),
    );
    pos = next;
    const reached = timeline.toOriginal(pos, 'end');
    send({
      t: 'progress',
      percent: vadDone() && pos >= timeline.speechSec ? 100 : (reached / fileSec) * 100,
      speed,
    });
  }
  for (const seg of grouper.flush()) emit(seg);
  if (job.diarize) {
    send({ t: 'diarizing' });
    let turns: SpeakerTurn[];
    try {
      turns = diarize(job.diarize, readRanges(fd, [[0, Math.floor(limitSec * SAMPLE_RATE)]]));
    } catch (err) {
      send({ t: 'error', code: 'model_invalid', message: `speaker diarization: ${(err as Error).message}` });
      closeSync(fd);
      return;
    }
    send({ t: 'speakers', turns });
  }
  closeSync(fd);
  await detector?.close();
  send({ t: 'done', language });
}

const arg = process.argv[2];
if (!arg) {
  process.stderr.write('usage: child.ts <job JSON>\n');
  process.exit(2);
}
run(JSON.parse(arg) as ChildJob).then(
  // Exit explicitly: the binding's thread-safe callbacks can keep the event loop alive.
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
