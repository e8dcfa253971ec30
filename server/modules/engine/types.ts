// The speech-to-text engine contract. Every engine takes the same decoded audio and reports
// progress and segments as it goes, so the job runner never knows which one it drives.

export interface Segment {
  /** Seconds from the start of the media. */
  start: number;
  end: number;
  text: string;
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
  /** 0–100, non-decreasing. */
  onProgress?: (percent: number) => void;
  /** Called once per finished segment, in order. */
  onSegment?: (segment: Segment) => void;
  signal?: AbortSignal;
}

export interface TranscribeResult {
  /** The language spoken (detected or as requested), a Whisper code; null when unknown. */
  language: string | null;
  segments: Segment[];
}

export interface Engine {
  readonly name: string;
  transcribe(audio: EngineAudio, options: TranscribeOptions): Promise<TranscribeResult>;
  close?(): Promise<void>;
}

/**
 * Why an engine failed. `transient` errors (a crashed process, a remote 5xx or timeout) may be
 * retried with backoff; the others end the job with the translated reason of their code.
 */
export type EngineErrorCode =
  | 'model_missing'
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
