import { EventEmitter } from 'node:events';
import type { Segment } from '../../../common/segments';
import type { TranscriptStage, TranscriptStatus } from '../../../common/transcript-types';
import type { InsightEvent } from '../../../common/insights';
import type { AskEvent } from '../../../common/ask';

/** What happens to a transcript while it is processed, as the browser's event stream sees it. */
export type TranscriptEvent =
  | {
      type: 'status';
      status: TranscriptStatus;
      /** 0–100: of the transcription, or of the model download while the stage is 'engine'. */
      progress: number;
      stage?: TranscriptStage | null;
      /** Seconds of work left (measured speed); null while unknown. */
      remainingSec?: number | null;
      errorCode?: string | null;
    }
  | { type: 'segment'; index: number; segment: Segment }
  /** An AI output's progress and generated text (modules/insights). */
  | InsightEvent
  /** An answer being written (channel ask:<message id>; modules/ask). */
  | AskEvent
  /** A translation track's progress (channel translation:<track id>): a segment's text, or its end. */
  | {
      type: 'translation';
      progress: number;
      index?: number;
      text?: string;
      status?: 'done' | 'failed';
      /** A segment translated again (modules/translation/retranslate.ts): its saved text, or null: unchanged. */
      retranslated?: { text: string; revision: number } | null;
    }
  /** Sent to whichever worker runs the job. */
  | { type: 'cancel' }
  /** A listener that joined late asks the writers of streamed text for what they wrote so far. */
  | { type: 'resend' };

type Listener = (event: TranscriptEvent) => void;

/**
 * Fans transcript events out to the web processes' event streams. In process by default; over
 * Redis pub/sub when workers run elsewhere (redis-events.ts).
 */
export interface TranscriptEvents {
  publish(transcriptId: string, event: TranscriptEvent): void;
  subscribe(transcriptId: string, listener: Listener): () => void;
  close(): Promise<void>;
}

export function createLocalEvents(): TranscriptEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (id, event) => void emitter.emit(id, event),
    subscribe(id, listener) {
      emitter.on(id, listener);
      return () => emitter.off(id, listener);
    },
    close: async () => void emitter.removeAllListeners(),
  };
}
