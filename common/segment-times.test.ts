import { describe, expect, it } from 'vitest';
import {
  dragEdge,
  formatClock,
  parseClock,
  retimeSegment,
  segmentBounds,
  SegmentTimeError,
  timelineWindow,
} from './segment-times';
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
    expect(formatClock(75.3)).toBe('1:15.3');
    expect(formatClock(3.004)).toBe('0:03.0');
    expect(formatClock(3723.5)).toBe('1:02:03.5');
    // Hundredths only when there are some (set by a fine drag).
    expect(formatClock(75.25)).toBe('1:15.25');
    expect(formatClock(3.04)).toBe('0:03.04');
    expect(formatClock(59.999)).toBe('1:00.0');
    expect(parseClock('0:03.04')).toBe(3.04);
    expect(parseClock('1:15.3')).toBe(75.3);
    expect(parseClock('1:02:03.5')).toBe(3723.5);
    expect(parseClock('75,5')).toBe(75.5);
    expect(parseClock('1:75')).toBeNull();
    expect(parseClock('abc')).toBeNull();
  });
});

describe("a segment's edge dragged on its timeline", () => {
  it('may go as far as the neighbours and the recording', () => {
    expect(segmentBounds(segments, 0, 10)).toEqual({ min: 0, max: 3 });
    expect(segmentBounds(segments, 1, 10)).toEqual({ min: 2, max: 6 });
    expect(segmentBounds(segments, 2, 10)).toEqual({ min: 5, max: 10 });
    expect(segmentBounds(segments, 2, null)).toEqual({ min: 5, max: Infinity });
  });

  it('snaps to the step and stops at the neighbour and short of the other edge', () => {
    const seg = segments[1]!;
    const bounds = segmentBounds(segments, 1, 10);
    expect(dragEdge('start', 3.437, seg, bounds)).toBe(3.4);
    expect(dragEdge('start', 3.437, seg, bounds, 0.01)).toBe(3.44);
    expect(dragEdge('start', 0.5, seg, bounds)).toBe(2);
    expect(dragEdge('start', 9, seg, bounds)).toBe(4.9);
    expect(dragEdge('end', 7.3, seg, bounds)).toBe(6);
    expect(dragEdge('end', 1, seg, bounds)).toBe(3.1);
    // A neighbour off the step is met exactly.
    const near = { min: 2.37, max: 5.63 };
    expect(dragEdge('start', 2.3, seg, near)).toBe(2.37);
    expect(dragEdge('end', 5.7, seg, near)).toBe(5.63);
    // A segment shorter than the least span keeps its length at most.
    expect(dragEdge('end', 0, { start: 3, end: 3.05 }, bounds)).toBe(3.05);
  });

  it('shows the segment with room around it, the near neighbour in sight', () => {
    // Neighbours 1 s away: the window reaches a little into them.
    expect(timelineWindow(segments[1]!, { min: 2, max: 6 })).toEqual({ from: 1.5, to: 6.5 });
    // Far neighbours: 3 s of room each side.
    expect(timelineWindow({ start: 30, end: 32 }, { min: 0, max: Infinity })).toEqual({ from: 27, to: 35 });
    // Never before 0.
    expect(timelineWindow({ start: 0.2, end: 2 }, { min: 0, max: 5 }).from).toBe(0);
  });
});
