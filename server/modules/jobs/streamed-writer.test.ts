import { describe, expect, it } from 'vitest';
import { joinStreamed, type StreamedPiece, type StreamedText } from '../../../common/streamed-text';
import { createLocalEvents } from './events';
import { askForResend, streamedWriter } from './streamed-writer';

describe('streamed model text', () => {
  it('gives a listener that joins late everything written before it', () => {
    const events = createLocalEvents();
    const writer = streamedWriter(events, 'ask:1', (piece) => ({ type: 'ask-token', id: '1', ...piece }));
    writer.write('Hel', 0);
    writer.write('lo', 0);

    let seen: StreamedText | undefined;
    const pieces: StreamedPiece[] = [];
    events.subscribe('ask:1', (e) => {
      if (e.type !== 'ask-token') return;
      pieces.push(e);
      seen = joinStreamed(seen, e);
    });
    askForResend(events, 'ask:1');
    writer.write(', world', 0);
    expect(pieces).toEqual([
      { type: 'ask-token', id: '1', phase: 0, at: 0, text: 'Hello' },
      { type: 'ask-token', id: '1', phase: 0, at: 5, text: ', world' },
    ]);
    expect(seen).toEqual({ phase: 0, text: 'Hello, world' });

    // A new phase starts at 0; after close the writer answers no more resends.
    writer.write('Next', 1);
    expect(seen).toEqual({ phase: 1, text: 'Next' });
    writer.close();
    askForResend(events, 'ask:1');
    expect(pieces).toHaveLength(3);
  });

  it('sends nothing for a resend before anything was written', () => {
    const events = createLocalEvents();
    streamedWriter(events, 't', (piece) => ({ type: 'ask-token', id: '1', ...piece }));
    const got: unknown[] = [];
    events.subscribe('t', (e) => e.type === 'ask-token' && got.push(e));
    askForResend(events, 't');
    expect(got).toEqual([]);
  });
});
