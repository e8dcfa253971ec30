// What every live stream (transcription, AI outputs, answers, translations) does with an event
// channel: listen from the moment it is created — before the caller reads its first snapshot, so
// nothing in between is missed — and hand over what arrived, or nothing after a quiet spell (the
// caller then looks at the rows itself: an event lost on the way never leaves a page behind).
import type { TranscriptEvent, TranscriptEvents } from './events';

export interface ChannelFollower<E> {
  /** The events that arrived, in order; `[]` after `quietMs` without any; `null` once aborted. */
  next(quietMs: number): Promise<E[] | null>;
  close(): void;
}

export function followChannel<E extends TranscriptEvent>(
  events: Pick<TranscriptEvents, 'subscribe'>,
  channel: string,
  keep: (event: TranscriptEvent) => event is E,
  signal: AbortSignal,
): ChannelFollower<E> {
  let pending: E[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = events.subscribe(channel, (event) => {
    if (!keep(event)) return;
    pending.push(event);
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort);
  return {
    async next(quietMs) {
      if (!signal.aborted && pending.length === 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, quietMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
      if (signal.aborted) return null;
      const out = pending;
      pending = [];
      return out;
    },
    close() {
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
    },
  };
}

/** Keeps every event of a channel. */
export const anyEvent = (_event: TranscriptEvent): _event is TranscriptEvent => true;
