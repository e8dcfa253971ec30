import { describe, expect, it } from 'vitest';
import { countMatches, replaceInSegments } from './find-replace';

const segs = [
  { start: 0, end: 2, text: 'The cat sat. THE end.' },
  { start: 2, end: 4, text: 'No match here' },
  {
    start: 4,
    end: 6,
    text: 'the (a+b) price',
    words: [
      { start: 4, end: 4.5, text: 'the' },
      { start: 4.5, end: 5, text: '(a+b)' },
      { start: 5, end: 6, text: 'price' },
    ],
  },
];

describe('find and replace', () => {
  it('counts every occurrence, case-insensitively, and the segments holding them', () => {
    expect(countMatches(segs, 'the')).toEqual({ total: 3, indexes: [0, 2] });
    expect(countMatches(segs, '(a+b)')).toEqual({ total: 1, indexes: [2] }); // literal, not a pattern
    expect(countMatches(segs, '')).toEqual({ total: 0, indexes: [] });
    expect(countMatches([{ start: 0, end: 1, text: 'ÄPFEL und äpfel' }], 'äpfel').total).toBe(2);
  });

  it('replaces everywhere or in one segment, keeping unchanged words timed', () => {
    const all = replaceInSegments(segs, 'the', 'a');
    expect(all.count).toBe(3);
    expect(all.segments.map((s) => s.text)).toEqual(['a cat sat. a end.', 'No match here', 'a (a+b) price']);
    expect(all.segments[1]).toBe(segs[1]); // untouched segments are the same objects
    expect(all.segments[2]!.words!.slice(1)).toEqual(segs[2]!.words!.slice(1));
    const one = replaceInSegments(segs, 'the', 'a', 2);
    expect(one.count).toBe(1);
    expect(one.segments[0]!.text).toBe(segs[0]!.text);
    expect(replaceInSegments(segs, '$1', 'x').count).toBe(0);
    expect(replaceInSegments(segs, 'price', '$&$&').segments[2]!.text).toBe('the (a+b) $&$&'); // literal
  });
});
