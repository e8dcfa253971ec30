import { describe, expect, it } from 'vitest';
import type { Segment } from '../../../common/segments';
import { createSegmentStream } from './segment-stream';

describe('createSegmentStream', () => {
  it('cleans text and times, keeps segments in order inside the audio, and tells each one', () => {
    const heard: Segment[] = [];
    const s = createSegmentStream(10, (seg) => heard.push(seg));
    expect(s.push({ start: 0.12341, end: 2.5, text: '  Hello \t world ' })).toEqual({
      start: 0.123,
      end: 2.5,
      text: 'Hello world',
    });
    // Overlapping the previous one: starts where it ended.
    expect(
      s.push({ start: 2, end: 4, text: 'Next', words: [{ start: 1.5, end: 3, text: ' Next ' }] }),
    ).toEqual({
      start: 2.5,
      end: 4,
      text: 'Next',
      words: [{ start: 2.5, end: 3, text: 'Next' }],
    });
    // Empty, inside the previous one, non-finite: dropped.
    expect(s.push({ start: 4, end: 5, text: '   ' })).toBeNull();
    expect(s.push({ start: 3, end: 4.005, text: 'Echo' })).toBeNull();
    expect(s.push({ start: Number.NaN, end: 5, text: 'x' })).toBeNull();
    // Past the end of the audio: cut there.
    expect(s.push({ start: 9, end: 12, text: 'Tail', speaker: 'A' })).toEqual({
      start: 9,
      end: 10,
      text: 'Tail',
      speaker: 'A',
    });
    expect(s.push({ start: 10.5, end: 11, text: 'Beyond' })).toBeNull();
    expect(heard).toEqual(s.segments);
    expect(s.segments.map((x) => x.text)).toEqual(['Hello world', 'Next', 'Tail']);
  });

  it('keeps a speaker label as the engine gave it, for the job to name', () => {
    const s = createSegmentStream(10);
    expect(s.push({ start: 0, end: 1, text: 'Hi', speaker: 'Dr. Who' })?.speaker).toBe('Dr. Who');
  });
});
