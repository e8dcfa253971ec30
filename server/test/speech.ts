// Audio with known speech boundaries, for the speech-detection tests and benches: espeak-ng phrases
// separated by silence, noise and a synthetic chord ("music"), written as the engine's PCM (s16le,
// mono, 16 kHz). The true start and end of each phrase are measured on its own samples.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SR = 16_000;

export type Gap = 'silence' | 'noise' | 'music';

export interface SpeechFixture {
  pcmPath: string;
  durationSec: number;
  /** Each phrase's first and last audible sample, in seconds. */
  speech: { start: number; end: number }[];
}

export const hasEspeak = () => spawnSync('espeak-ng', ['--version']).status === 0;

function phrasePcm(dir: string, text: string, n: number, voice: string): Float32Array {
  const wav = path.join(dir, `phrase-${n}.wav`);
  execFileSync('espeak-ng', ['-v', voice, '-w', wav, text]);
  const raw = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', wav, '-f', 's16le', '-ac', '1', '-ar', String(SR), 'pipe:1'],
    {
      maxBuffer: 1 << 28,
    },
  );
  const s16 = new Int16Array(raw.buffer, raw.byteOffset, raw.length >> 1);
  return Float32Array.from(s16, (v) => v / 32768);
}

function gapPcm(kind: Gap, seconds: number, seed: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * SR));
  let s = seed >>> 0 || 1;
  const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 0x100000000) * 2 - 1;
  if (kind === 'noise') for (let i = 0; i < out.length; i++) out[i] = rnd() * 0.05;
  if (kind === 'music') {
    // A C-major chord with a slow tremolo: tonal, steady, not speech.
    for (let i = 0; i < out.length; i++) {
      const t = i / SR;
      const env = 0.7 + 0.3 * Math.sin(2 * Math.PI * 2 * t);
      out[i] =
        (0.1 *
          env *
          (Math.sin(2 * Math.PI * 261.6 * t) +
            Math.sin(2 * Math.PI * 329.6 * t) +
            Math.sin(2 * Math.PI * 392 * t))) /
        3;
    }
  }
  return out;
}

const PHRASES = [
  'The quick brown fox jumps over the lazy dog, and then it runs away into the forest.',
  'Speech detection finds the stretches where somebody talks, and skips the rest.',
  'We measure how much compute is saved when silence and noise are not transcribed.',
  'Every boundary is known, so the detector can be checked to within a few frames.',
];

/**
 * First and last sample of the audible part of a phrase: the first and last 10 ms window whose
 * RMS reaches 1/20 of the loudest window's (−26 dB), the way a listener (and an editor's
 * waveform) places a word's edges.
 */
function audibleSpan(p: Float32Array): [number, number] {
  const win = SR / 100;
  const rms: number[] = [];
  for (let i = 0; i + win <= p.length; i += win) {
    let sum = 0;
    for (let k = i; k < i + win; k++) sum += p[k]! * p[k]!;
    rms.push(Math.sqrt(sum / win));
  }
  const floor = Math.max(...rms) / 20;
  const first = rms.findIndex((r) => r >= floor);
  const last = rms.length - 1 - [...rms].reverse().findIndex((r) => r >= floor);
  return [first * win, (last + 1) * win];
}

/**
 * Phrases and gaps, alternately: gap, phrase, gap, phrase … gap. `gaps` cycles through the kinds;
 * `until` repeats the pattern until the audio is at least that long (seconds).
 */
export function makeSpeechFixture(
  dir: string,
  opts: { phrases?: number; gapSec?: number; gaps?: Gap[]; until?: number } = {},
): SpeechFixture {
  mkdirSync(dir, { recursive: true });
  const gaps = opts.gaps ?? ['silence', 'noise', 'music'];
  const gapSec = opts.gapSec ?? 6;
  const voices = ['en', 'en-us'];
  const cache = new Map<number, Float32Array>();
  const parts: Float32Array[] = [];
  const speech: SpeechFixture['speech'] = [];
  let length = 0;
  const push = (a: Float32Array) => {
    parts.push(a);
    length += a.length;
  };
  for (let i = 0; i < (opts.phrases ?? 4) || length / SR < (opts.until ?? 0); i++) {
    push(gapPcm(gaps[i % gaps.length]!, gapSec, i + 1));
    const key = i % (PHRASES.length * voices.length);
    let p = cache.get(key);
    if (!p) {
      p = phrasePcm(dir, PHRASES[key % PHRASES.length]!, key, voices[Math.floor(key / PHRASES.length)]!);
      cache.set(key, p);
    }
    const [a, b] = audibleSpan(p);
    speech.push({ start: (length + a) / SR, end: (length + b) / SR });
    push(p);
  }
  push(gapPcm(gaps[0]!, gapSec, 99));
  const pcm = new Int16Array(length);
  let at = 0;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++)
      pcm[at + i] = Math.max(-32768, Math.min(32767, Math.round(part[i]! * 32767)));
    at += part.length;
  }
  const pcmPath = path.join(dir, 'speech.pcm');
  writeFileSync(pcmPath, Buffer.from(pcm.buffer));
  return { pcmPath, durationSec: length / SR, speech };
}

/** Encodes the fixture's PCM as a media file (for upload tests). */
export function pcmToMedia(pcmPath: string, out: string): string {
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    's16le',
    '-ar',
    String(SR),
    '-ac',
    '1',
    '-i',
    pcmPath,
    out,
  ]);
  return out;
}

/** One turn of a conversation: what is said, by which espeak-ng voice (e.g. 'en-us+m3', 'de'). */
export interface Turn {
  text: string;
  voice: string;
  /** espeak-ng pitch, 0–99 (default 50): a high one tells a second speaker apart. */
  pitch?: number;
}

/**
 * Turns spoken one after another with `gapSec` of silence between them (and before and after),
 * written as the engine's PCM; `speech` holds each turn's audible span.
 */
export function makeConversation(dir: string, turns: Turn[], gapSec = 1.5): SpeechFixture {
  mkdirSync(dir, { recursive: true });
  const parts: Float32Array[] = [];
  const speech: SpeechFixture['speech'] = [];
  let length = 0;
  const gap = new Float32Array(Math.round(gapSec * SR));
  parts.push(gap);
  length += gap.length;
  turns.forEach((turn, n) => {
    const wav = path.join(dir, `turn-${n}.wav`);
    execFileSync('espeak-ng', ['-v', turn.voice, '-p', String(turn.pitch ?? 50), '-w', wav, turn.text]);
    const raw = execFileSync(
      'ffmpeg',
      ['-v', 'error', '-i', wav, '-f', 's16le', '-ac', '1', '-ar', String(SR), 'pipe:1'],
      {
        maxBuffer: 1 << 28,
      },
    );
    const p = Float32Array.from(
      new Int16Array(raw.buffer, raw.byteOffset, raw.length >> 1),
      (v) => v / 32768,
    );
    const [a, b] = audibleSpan(p);
    speech.push({ start: (length + a) / SR, end: (length + b) / SR });
    parts.push(p, gap);
    length += p.length + gap.length;
  });
  const pcm = new Int16Array(length);
  let at = 0;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++)
      pcm[at + i] = Math.max(-32768, Math.min(32767, Math.round(part[i]! * 32767)));
    at += part.length;
  }
  const pcmPath = path.join(dir, 'conversation.pcm');
  writeFileSync(pcmPath, Buffer.from(pcm.buffer));
  return { pcmPath, durationSec: length / SR, speech };
}
