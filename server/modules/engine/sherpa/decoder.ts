// A sherpa-onnx offline recognizer as the engine child's decoder (the Whisper child's chunk plan,
// speech detection, word regrouping and diarization run unchanged around it). Each chunk is one
// recognizer pass; its token timings become words in centiseconds, as whisper.cpp's pieces are.
import type { RawPiece } from '../whisper/chunk-plan';
import type { Decoder } from '../whisper/decoder';
import type { SherpaFamily, SherpaPaths } from './families';
import { createRecognizer, recognize, reportedLanguage, tokensToWords } from './recognize';

export interface RecognizerJob {
  family: SherpaFamily;
  paths: SherpaPaths;
}

/** Loads the recognizer (the native library exits the process on a file it cannot read). */
export function loadSherpaDecoder(
  recognizer: RecognizerJob,
  opts: { language: string; threads: number },
  onLoaded: (ms: number) => void,
): Decoder {
  const started = Date.now();
  const native = createRecognizer(recognizer.family, recognizer.paths, opts.language, opts.threads);
  onLoaded(Date.now() - started);
  let heard: string | null = null;
  return {
    async decode(samples) {
      const t0 = Date.now();
      const result = recognize(native, samples);
      const computeSec = Math.max(0.001, (Date.now() - t0) / 1000);
      heard ??= reportedLanguage(result);
      const pieces: RawPiece[] = tokensToWords(result).map((w) => ({
        text: w.text,
        start: Math.round(w.start * 100),
        end: Math.round(w.end * 100),
      }));
      return { pieces, computeSec };
    },
    // SenseVoice names the language it heard; Parakeet does not.
    detectLanguage: () => heard,
    keepLanguage() {},
  };
}
