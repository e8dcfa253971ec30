// The writing side of streamed model text (common/streamed-text.ts): each piece goes out with
// where it starts, and a listener that joins late asks on the same channel for a resend of what
// was written so far, so it never shows half an answer that then jumps.
import type { StreamedPiece } from '../../../common/streamed-text';
import type { TranscriptEvent, TranscriptEvents } from './events';

export interface StreamedWriter {
  write(text: string, phase: number): void;
  close(): void;
}

export function streamedWriter(
  events: TranscriptEvents,
  channel: string,
  toEvent: (piece: StreamedPiece) => TranscriptEvent,
): StreamedWriter {
  let phase = -1;
  let written = '';
  const off = events.subscribe(channel, (event) => {
    if (event.type === 'resend' && phase >= 0) events.publish(channel, toEvent({ phase, at: 0, text: written }));
  });
  return {
    write(text, next) {
      if (next !== phase) {
        phase = next;
        written = '';
      }
      const at = written.length;
      written += text;
      events.publish(channel, toEvent({ phase, at, text }));
    },
    close: off,
  };
}

/** A listener that subscribed to `channel` asks its writers for what they have written so far. */
export const askForResend = (events: TranscriptEvents, channel: string): void =>
  events.publish(channel, { type: 'resend' });
