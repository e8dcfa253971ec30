// A sherpa-onnx offline recognizer (Parakeet TDT or SenseVoice) inside the sherpa child process,
// and its token timings turned into timed words. The native library exits the process on a model
// it cannot read, which is why it only ever runs in a child (child.ts), after the file checks.
import { createRequire } from 'node:module';
import type { RawWord } from '../../../../common/word-groups';
import { isUnspacedText } from '../../../../common/words';
import type { SherpaFamily, SherpaPaths } from './families';

/** What sherpa-onnx returns for one decoded stream (times in seconds from the stream's start). */
export interface SherpaResult {
  text: string;
  tokens: string[];
  timestamps: number[];
  /** Parakeet TDT: each token's duration; empty for CTC models (SenseVoice). */
  durations?: number[];
  /** SenseVoice: the language it heard, as '<|ja|>'. */
  lang?: string;
}

interface OfflineStream {
  acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
}
export interface OfflineRecognizer {
  createStream(): OfflineStream;
  decode(stream: OfflineStream): void;
  getResult(stream: OfflineStream): SherpaResult;
}

/** The recognizer for a family's files; `language` is a Whisper code or 'auto'. */
export function createRecognizer(
  family: SherpaFamily,
  paths: SherpaPaths,
  language: string,
  threads: number,
): OfflineRecognizer {
  const sherpa = createRequire(import.meta.url)('sherpa-onnx-node') as {
    OfflineRecognizer: new (config: unknown) => OfflineRecognizer;
  };
  const modelConfig =
    family === 'parakeet'
      ? {
          transducer: { encoder: paths.encoder, decoder: paths.decoder, joiner: paths.joiner },
          modelType: 'nemo_transducer',
        }
      : {
          // SenseVoice knows zh, en, ja, ko, yue; '' lets it find out. ITN on: punctuation and digits.
          senseVoice: {
            model: paths.model,
            language: ['zh', 'en', 'ja', 'ko', 'yue'].includes(language) ? language : '',
            useInverseTextNormalization: 1,
          },
        };
  return new sherpa.OfflineRecognizer({
    featConfig: { sampleRate: 16000, featureDim: 80 },
    modelConfig: { ...modelConfig, tokens: paths.tokens, numThreads: threads, debug: 0 },
    decodingMethod: 'greedy_search',
  });
}

/** Decodes 16 kHz mono samples in one pass. */
export function recognize(recognizer: OfflineRecognizer, samples: Float32Array): SherpaResult {
  const stream = recognizer.createStream();
  stream.acceptWaveform({ samples, sampleRate: 16000 });
  recognizer.decode(stream);
  return recognizer.getResult(stream);
}

const PUNCTUATION = /^[\p{P}\p{S}]+$/u;
/** Longest a word is taken to last when the model gives only its start (CTC). */
const MAX_WORD_SEC = 0.6;

/**
 * Words from token timings, times relative to the decoded audio. A word starts at a token that
 * begins with a space (BPE's word start), or at every character of a script written without
 * spaces; punctuation joins the word before it. A word ends where its last token ends (Parakeet
 * TDT gives durations) or where the next token starts, at most MAX_WORD_SEC after its last start
 * (SenseVoice gives starts only).
 */
export function tokensToWords(result: SherpaResult): RawWord[] {
  const { tokens, timestamps } = result;
  const durations = result.durations ?? [];
  const words: RawWord[] = [];
  const tokenEnd = (i: number) => {
    const start = timestamps[i] ?? 0;
    if (durations[i] !== undefined && durations[i]! > 0) return start + durations[i]!;
    const next = timestamps[i + 1];
    return next !== undefined ? Math.min(next, start + MAX_WORD_SEC) : start + 0.08;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === '' || /^<.*>$/.test(token)) continue;
    const start = timestamps[i] ?? 0;
    const prev = words[words.length - 1];
    const bare = token.trim();
    const joins =
      prev !== undefined &&
      !/^\s/.test(token) &&
      (PUNCTUATION.test(bare) || (!isUnspacedText(bare) && !isUnspacedText(prev.text.trim())));
    if (joins) {
      prev.text += token;
      prev.end = Math.max(prev.end, tokenEnd(i));
    } else {
      words.push({ start, end: Math.max(start + 0.01, tokenEnd(i)), text: token });
    }
  }
  const ms = (x: number) => Math.round(x * 1000) / 1000;
  return words
    .filter((w) => w.text.trim() !== '')
    .map((w) => ({ ...w, start: ms(w.start), end: ms(w.end) }));
}

/** The language SenseVoice reports ('<|ja|>' → 'ja'), or null. */
export function reportedLanguage(result: SherpaResult): string | null {
  const code = /^<\|([a-z]{2,3})\|>$/.exec(result.lang ?? '')?.[1];
  return code && code !== 'nospeech' ? code : null;
}
