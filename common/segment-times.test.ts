import { describe, expect, it } from 'vitest';
import { formatClock, parseClock, retimeSegment, SegmentTimeError } from './segment-times';
import type { Segment } from './segments';

const segments: Segment[] = [
  { start: 0, end: 2, text: 'one' },
  {
    start: 3,
    end: 5,
    text: 'two words',
    words: [
      { start: 3, end: 3.8, text: 'two' },
      { start: 4, end: 5, text: 'words' },
    ],
  },
  { start: 6, end: 8, text: 'three' },
];

const problem = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof SegmentTimeError) return [err.problem, err.limit];
    throw err;
  }
  return null;
};

describe('a segment retimed by hand', () => {
  it('moves start and end and clamps its words into the new span', () => {
    const out = retimeSegment(segments, 1, 3.3, 4.6, 10);
    expect(out[1]).toEqual({
      start: 3.3,
      end: 4.6,
      text: 'two words',
      words: [
        { start: 3.3, end: 3.8, text: 'two' },
        { start: 4, end: 4.6, text: 'words' },
      ],
    });
    expect(out[0]).toBe(segments[0]);
    expect(segments[1]!.start).toBe(3);
  });

  it('refuses an end before the start, an overlap with a neighbour, and a time past the recording', () => {
    expect(problem(() => retimeSegment(segments, 1, 4, 4))).toEqual(['order', null]);
    expect(problem(() => retimeSegment(segments, 1, -0.1, 4))).toEqual(['order', null]);
    expect(problem(() => retimeSegment(segments, 1, 1.9, 4))).toEqual(['overlap', '0:02.0']);
    expect(problem(() => retimeSegment(segments, 1, 3, 6.1))).toEqual(['overlap', '0:06.0']);
    expect(problem(() => retimeSegment(segments, 2, 6, 9, 8.5))).toEqual(['outside', '0:08.5']);
    // Touching a neighbour is fine.
    expect(retimeSegment(segments, 1, 2, 6)[1]).toMatchObject({ start: 2, end: 6 });
    expect(() => retimeSegment(segments, 7, 1, 2)).toThrow(RangeError);
  });

  it('reads and writes the m:ss.s of the time fields', () => {
    expect(formatClock(75.25)).toBe('1:15.3');
    expect(formatClock(3.04)).toBe('0:03.0');
    expect(formatClock(3723.5)).toBe('1:02:03.5');
    expect(parseClock('1:15.3')).toBe(75.3);
    expect(parseClock('1:02:03.5')).toBe(3723.5);
    expect(parseClock('75,5')).toBe(75.5);
    expect(parseClock('1:75')).toBeNull();
    expect(parseClock('abc')).toBeNull();
  });
});
