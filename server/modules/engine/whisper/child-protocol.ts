// What the engine tells its whisper child (the job, as one JSON argument) and what the child
// answers (newline-delimited JSON on fd 3). The child reports facts — regions found, chunks started
// and done, segments, speakers — and the parent (run-child.ts, relay.ts) turns them into progress
// and a result.
import type { Segment } from '../../../../common/segments';
import type { SpeakerTurn } from '../../../../common/speakers';
import type { DiarizeJob } from '../../speakers/diarization/diarize';
import type { RecognizerJob } from '../sherpa/decoder';
import type { Region } from '../speech/regions';

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
  /** Transcribe (default true); false: only identify speakers (`diarize`) in the audio. */
  transcribe?: boolean;
  /** Identify speakers once the words are out (sherpa-onnx diarization). */
  diarize?: DiarizeJob;
  /**
   * Decode with a sherpa-onnx offline recognizer (Parakeet, SenseVoice) instead of whisper.cpp;
   * `modelPath` then only names its main file in messages.
   */
  recognizer?: RecognizerJob;
}

export type ChildMessage =
  | { t: 'loaded'; ms: number }
  | { t: 'stage'; stage: 'detecting' | 'transcribing' }
  /** Speech regions settled so far (original timeline), in order; sent as they settle. */
  | { t: 'regions'; regions: Region[] }
  /** A chunk starts: what it covers on the original timeline, and the speed measured so far. */
  | { t: 'chunk'; from: number; to: number; audioSec: number; speed: number | null }
  /** A chunk is done: the transcription reached `reached` (original seconds); `finished` = all speech. */
  | { t: 'progress'; reached: number; finished: boolean; speed: number }
  | { t: 'language'; code: string }
  /** A segment as whisper gave it, on the original timeline (the parent cleans it). */
  | { t: 'segment'; start: number; end: number; text: string; words?: Segment['words'] }
  /** Speaker diarization starts (its native library loads the models now). */
  | { t: 'diarizing' }
  | { t: 'speakers'; turns: SpeakerTurn[] }
  | { t: 'done'; language: string | null }
  | { t: 'error'; code: 'model_invalid' | 'model_missing' | 'audio_unreadable'; message: string };
