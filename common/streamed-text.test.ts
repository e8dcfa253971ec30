import { describe, expect, it } from 'vitest';
import { joinStreamed, type StreamedText } from './streamed-text';

const join = (pieces: [number, number, string][]) =>
  pieces.reduce<StreamedText | undefined>(
    (known, [phase, at, text]) => joinStreamed(known, { phase, at, text }),
    undefined,
  );

describe('joinStreamed', () => {
  it('appends pieces in order', () => {
    expect(join([[0, 0, 'Hel'], [0, 3, 'lo']])).toEqual({ phase: 0, text: 'Hello' });
  });

  it('skips what a resend repeats and keeps what it adds', () => {
    expect(join([[0, 0, 'Hel'], [0, 3, 'lo'], [0, 0, 'Hello, wo'], [0, 9, 'rld']])).toEqual({
      phase: 0,
      text: 'Hello, world',
    });
  });

  it('waits for the resend after a gap (a late listener)', () => {
    expect(join([[0, 5, ', wo']])).toEqual({ phase: 0, text: '' });
    expect(join([[0, 5, ', wo'], [0, 0, 'Hello, wo'], [0, 9, 'rld']])?.text).toBe('Hello, world');
  });

  it('starts again at a new phase and ignores pieces of an older one', () => {
    expect(join([[0, 0, 'first'], [1, 0, 'sec'], [0, 5, ' more'], [1, 3, 'ond']])).toEqual({
      phase: 1,
      text: 'second',
    });
  });
});
