// whisper.cpp in the child: the model loaded once, one full() call per chunk. full() is
// synchronous and its segment callbacks only run once it has returned (measured on
// @napi-rs/whisper 0.0.4: onNewSegment never fires during the call), so decode() waits for them.
import os from 'node:os';
import { Whisper, WhisperFullParams, WhisperSamplingStrategy } from '@napi-rs/whisper';
import type { RawPiece } from './chunk-plan';
import type { ChildJob } from './child-protocol';

const squash = (s: string) => s.replace(/\s+/g, '');

export interface Decoder {
  /** The pieces of one chunk (words in word mode) and the compute time it took, in seconds. */
  decode(samples: Float32Array, prompt: string): Promise<{ pieces: RawPiece[]; computeSec: number }>;
  /** The language heard in the last chunk (a Whisper code), once when it was 'auto'. */
  detectLanguage(): string | null;
  /** Later chunks keep this language instead of detecting it again. */
  keepLanguage(code: string): void;
}

/** Loads the model (throws when whisper.cpp cannot) and reports how long that took. */
export function loadDecoder(job: ChildJob, wordMode: boolean, onLoaded: (ms: number) => void): Decoder {
  const loadStarted = Date.now();
  const whisper = new Whisper(job.modelPath);
  onLoaded(Date.now() - loadStarted);
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
  let collected: RawPiece[] = [];
  let collectedText = '';
  p.onNewSegment = (s) => {
    collected.push({ text: s.text, start: s.start, end: s.end });
    collectedText += squash(s.text);
  };

  return {
    async decode(samples, prompt) {
      collected = [];
      collectedText = '';
      if (prompt) p.initialPrompt = prompt;
      const started = Date.now();
      const text = whisper.full(p, samples);
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
      return { pieces: collected, computeSec };
    },
    detectLanguage: () => Whisper.lang(whisper.fullLangId) || null,
    keepLanguage(code) {
      p.language = code;
    },
  };
}
