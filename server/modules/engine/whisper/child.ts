// Child-process entry of the whisper engine: one process per job, one model context per process,
// so a native crash, a hang or a kill never touches the server.
//
//   node [--import tsx] child.ts '<ChildJob JSON>'
//
// Messages to the parent are newline-delimited JSON written with fs.writeSync to fd 3 (a pipe the
// parent opens). @napi-rs/whisper's full() is synchronous and its callbacks are thread-safe
// functions that only run once full() has returned (measured: onProgress/onNewSegment never fire
// during the call), so nothing here may rely on the event loop while a chunk is being decoded.
// The audio is decoded in chunks: that bounds memory for long files and gives the parent progress
// and a sign of life after every chunk.
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import os from 'node:os';
import { Whisper, WhisperFullParams, WhisperSamplingStrategy } from '@napi-rs/whisper';
import { checkModelFile } from './model-file';

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
}

export type ChildMessage =
  | { t: 'loaded'; ms: number }
  | { t: 'progress'; percent: number }
  | { t: 'language'; code: string }
  | { t: 'segment'; start: number; end: number; text: string }
  | { t: 'done'; language: string | null }
  | { t: 'error'; code: 'model_invalid' | 'audio_unreadable'; message: string };

const SAMPLE_RATE = 16000;
const OUT_FD = 3;
/** whisper.cpp returns nothing for less than 100 ms of audio. */
const MIN_SAMPLES = SAMPLE_RATE / 10;
const FIRST_CHUNK_SEC = 60;
const MIN_CHUNK_SEC = 60;
const PROMPT_CHARS = 200;

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

function readSamples(fd: number, fromSample: number, toSample: number): Float32Array {
  const bytes = (toSample - fromSample) * 2;
  const buf = Buffer.allocUnsafeSlow(bytes);
  let got = 0;
  while (got < bytes) {
    const n = readSync(fd, buf, got, bytes - got, fromSample * 2 + got);
    if (n === 0) break;
    got += n;
  }
  const pcm = new Int16Array(buf.buffer, buf.byteOffset, got >> 1);
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = pcm[i]! / 32768;
  return out;
}

const squash = (s: string) => s.replace(/\s+/g, '');
const round2 = (x: number) => Math.round(x * 100) / 100;

interface RawSegment {
  text: string;
  /** Centiseconds from the start of the chunk, as whisper.cpp counts. */
  start: number;
  end: number;
}

async function run(job: ChildJob): Promise<void> {
  const check = checkModelFile(job.modelPath);
  if (!check.ok) {
    send({ t: 'error', code: 'model_invalid', message: `${job.modelPath}: ${check.reason}` });
    return;
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

  const loadStarted = Date.now();
  let whisper: Whisper;
  try {
    whisper = new Whisper(job.modelPath);
  } catch (err) {
    send({ t: 'error', code: 'model_invalid', message: `${job.modelPath}: ${(err as Error).message}` });
    return;
  }
  send({ t: 'loaded', ms: Date.now() - loadStarted });

  const params = new WhisperFullParams(WhisperSamplingStrategy.Greedy);
  params.nThreads = job.threads ?? os.availableParallelism();
  params.translate = job.translate;
  params.language = job.language;
  params.temperature = job.temperature ?? 0;
  params.printProgress = false;
  params.printRealtime = false;
  params.printTimestamps = false;
  params.printSpecial = false;

  let collected: RawSegment[] = [];
  let collectedText = '';
  params.onNewSegment = (s) => {
    collected.push({ text: s.text, start: s.start, end: s.end });
    collectedText += squash(s.text);
  };

  let language: string | null = job.language === 'auto' ? null : job.language;
  let lastEnd = 0;
  let prompt = '';
  let pos = 0;
  let chunkSec = Math.min(FIRST_CHUNK_SEC, job.maxChunkSec);

  while (totalSamples - pos >= MIN_SAMPLES) {
    const chunkSamples = Math.round(chunkSec * SAMPLE_RATE);
    let end = Math.min(totalSamples, pos + chunkSamples);
    // No short tail chunk: it would cost a model pass for a few seconds of audio.
    if (totalSamples - end < chunkSamples / 4) end = totalSamples;
    const samples = readSamples(fd, pos, end);

    collected = [];
    collectedText = '';
    if (prompt) params.initialPrompt = prompt;
    const started = Date.now();
    const text = whisper.full(params, samples);
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
      const detected = Whisper.lang(whisper.fullLangId);
      if (detected) {
        language = detected;
        send({ t: 'language', code: detected });
        // Later chunks keep the language of the first one instead of re-detecting it each time.
        params.language = detected;
      }
    }

    const offsetSec = pos / SAMPLE_RATE;
    let next = end;
    let segments = collected;
    if (end < totalSamples && segments.length >= 2) {
      // The last segment may be cut by the chunk boundary: drop it and start the next chunk
      // where it starts, the way whisper.cpp itself seeks between its 30 s windows.
      const cut = pos + Math.floor((segments[segments.length - 1]!.start / 100) * SAMPLE_RATE);
      if (cut >= pos + chunkSamples / 2 && cut < end) {
        segments = segments.slice(0, -1);
        next = cut;
      }
    }

    for (const s of segments) {
      const textOut = s.text.trim();
      // Random or confused models give zero-length, reversed or overlong times: clamp and order.
      const start = Math.max(lastEnd, round2(offsetSec + s.start / 100));
      const stop = Math.min(limitSec, round2(offsetSec + s.end / 100));
      if (!textOut || stop - start < 0.01) continue;
      send({ t: 'segment', start, end: stop, text: textOut });
      lastEnd = stop;
      prompt = `${prompt} ${textOut}`.slice(-PROMPT_CHARS).trim();
    }

    // Size the next chunk from the measured speed, so that each one reports back in about
    // targetChunkComputeSec whatever the model and the machine.
    const speed = (end - pos) / SAMPLE_RATE / computeSec;
    chunkSec = Math.min(
      job.maxChunkSec,
      Math.max(Math.min(MIN_CHUNK_SEC, job.maxChunkSec), speed * job.targetChunkComputeSec),
    );
    pos = next;
    send({ t: 'progress', percent: (pos / totalSamples) * 100 });
  }
  closeSync(fd);
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
