// The speech-to-text engine contract. Every engine takes the same decoded audio and reports
// progress and segments as it goes, so the job runner never knows which one it drives.
//
// Adding an engine family (a sherpa-onnx offline recognizer, say) beside whisper and the
// OpenAI-compatible one:
// - put it in `engine/<family>/` and return an `Engine` from a `create<Family>Engine(options)`;
//   `create-engine.ts` picks it from the environment — the job code (transcription/process.ts)
//   does not change;
// - readiness is asked once, by the job, through `ready()` (its model files) and, when speakers are
//   asked for, `speakersReady()`; `transcribe()` assumes it and does not wait for downloads itself;
// - progress is the engine's own 0–100 (non-decreasing, 100 only once every segment is out); the
//   job places it in its bar (transcription/job-progress.ts);
// - segments go through `createSegmentStream` (./segment-stream.ts), the one place they are made
//   well-formed, which also calls `onSegment`; the result's `segments` are the stream's;
// - native code that can abort or hang runs in a child process (see whisper/run-child.ts);
// - failures are `EngineError`s with the codes below (the user sees their translated reason).

import type { EngineChoice } from '../../../common/engines';
import type { Segment } from '../../../common/segments';
import type { SpeakerTurn } from '../../../common/speakers';

export type { Segment };

/** A stretch of the media that holds speech (seconds from its start). */
export interface SpeechRegion {
  start: number;
  end: number;
}

/** What an engine is doing: analysing the audio for speech, or transcribing it. */
export type EngineStage = 'detecting' | 'transcribing' | 'speakers';

/** How far a job is, for the progress bar. */
export interface EngineProgress {
  /** 0–100, non-decreasing. */
  percent: number;
  /** Seconds of work left, estimated from the measured speed; null while unknown. */
  remainingSec: number | null;
}

/** Audio already decoded by ffmpeg: raw PCM, signed 16-bit little-endian, mono, 16 kHz. */
export interface EngineAudio {
  pcmPath: string;
  durationSec: number;
}

export interface TranscribeOptions {
  /** A Whisper language code (validated by the caller) or 'auto' to detect it. */
  language: string;
  /** Translate the speech to English. */
  translate?: boolean;
  /** The model family asked for ('auto': the best for the language; common/engines.ts). */
  engine?: EngineChoice;
  /** Called once when the engine has identified the language (automatic detection). */
  onLanguage?: (code: string) => void;
  /** 0–100, non-decreasing; `detail` adds the time left when the engine can tell. */
  onProgress?: (percent: number, detail?: EngineProgress) => void;
  /**
   * Called once per finished segment, in order (with `words` when the engine times words, and a
   * speaker label such as 'A' when the engine labels speakers; the job turns labels into speakers).
   */
  onSegment?: (segment: Segment) => void;
  onStage?: (stage: EngineStage) => void;
  /** Look for speech first and transcribe only it (engines that can; default true). */
  detectSpeech?: boolean;
  /**
   * Identify speakers (the local engine diarizes; `count` = expected speakers, null = find out).
   * Engines that cannot ignore it.
   */
  speakers?: { count: number | null };
  signal?: AbortSignal;
}

export interface TranscribeResult {
  /** The language spoken (detected or as requested), a Whisper code; null when unknown. */
  language: string | null;
  segments: Segment[];
  /** The stretches transcribed when speech was detected first; null when the whole audio was. */
  speechRegions: SpeechRegion[] | null;
  /** Who spoke when, from local diarization (when asked for); the job puts names on segments. */
  speakerTurns?: SpeakerTurn[] | null;
  /** The model that made the transcript ('whisper-base', 'parakeet-tdt-0.6b-v3-int8' …), when known. */
  model?: string;
}

export interface Engine {
  readonly name: string;
  /**
   * Resolves when the engine can run (its model is on disk); meanwhile reports the model download
   * (0–100). Rejects with EngineError('model_missing' | 'model_unavailable') when it cannot. The
   * job asks once, before `transcribe()`.
   */
  ready?(opts: {
    signal?: AbortSignal;
    onProgress?: (percent: number) => void;
    speakers?: boolean;
    /** The run's language, engine choice and translation, for engines that pick a model by them. */
    language?: string;
    engine?: EngineChoice;
    translate?: boolean;
  }): Promise<void>;
  /**
   * Resolves when speakers can be identified (the speaker models are on disk and look usable),
   * waiting for their download only while it is under way. Rejects with
   * EngineError('model_missing' | 'model_unavailable' | 'model_invalid') otherwise: the job then
   * delivers the transcript without speakers and says why. Absent: the engine labels speakers
   * itself (a diarizing API) or not at all.
   */
  speakersReady?(opts: { signal?: AbortSignal; onProgress?: (percent: number) => void }): Promise<void>;
  /** Who spoke when in the audio alone (speakers identified later on a finished transcript). */
  identifySpeakers?(
    audio: EngineAudio,
    opts: { count: number | null; signal?: AbortSignal },
  ): Promise<SpeakerTurn[]>;
  /** Starts what the engine prepares in the background (the model download) without waiting. */
  start?(): void;
  transcribe(audio: EngineAudio, options: TranscribeOptions): Promise<TranscribeResult>;
  close?(): Promise<void>;
}

/**
 * Why an engine failed. `transient` errors (a crashed process, a remote 5xx or timeout) may be
 * retried with backoff; the others end the job with the translated reason of their code.
 */
export type EngineErrorCode =
  | 'model_missing'
  | 'model_unavailable'
  | 'model_invalid'
  | 'unsupported_language'
  | 'engine_crashed'
  | 'engine_timeout'
  | 'remote_error'
  | 'remote_rejected'
  | 'canceled';

export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    readonly transient = false,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
