import { describe, expect, it } from 'vitest';
import {
  normalizeWords,
  splitSegment,
  mergeSegments,
  shiftSegments,
  validateSegmentsInput,
  wordRanges,
  type Segment,
} from './segments';
import { isUnspacedText, retimeWords, tokenizeWords } from './words';

const w = (start: number, end: number, text: string) => ({ start, end, text });

describe('tokenizeWords', () => {
  it('splits spaced text at white space, keeping punctuation on its word', () => {
    expect(tokenizeWords('  Hello,  world! How are\nyou? ')).toEqual([
      'Hello,',
      'world!',
      'How',
      'are',
      'you?',
    ]);
  });
  it('gives one word per character in unspaced scripts, Latin runs whole, punctuation attached', () => {
    expect(tokenizeWords('你好，世界。')).toEqual(['你', '好，', '世', '界。']);
    expect(tokenizeWords('新しいiPhone。です')).toEqual(['新', 'し', 'い', 'iPhone。', 'で', 'す']);
  });
  it('tells unspaced text from spaced text by its letters', () => {
    expect(isUnspacedText('今日は晴れです')).toBe(true);
    expect(isUnspacedText('오늘은 맑아요')).toBe(false);
    expect(isUnspacedText('Hello 世')).toBe(false);
  });
});

describe('normalizeWords', () => {
  it('clamps into the segment, orders and removes overlaps, drops blank words', () => {
    expect(normalizeWords([w(2.5, 3.2, ' b '), w(0.5, 2.7, 'a'), w(3, 9, 'c'), w(1, 1, '  ')], 1, 4)).toEqual(
      [w(1, 2.7, 'a'), w(2.7, 3.2, 'b'), w(3.2, 4, 'c')],
    );
  });
});

describe('words through segment edits', () => {
  const seg: Segment = {
    start: 0,
    end: 4,
    text: 'One two three four',
    words: [w(0, 0.8, 'One'), w(1, 1.8, 'two'), w(2, 2.8, 'three'), w(3, 3.9, 'four')],
  };

  it('finds each word in the text, in order', () => {
    expect(wordRanges(seg.text, seg.words!)).toEqual([
      [0, 3],
      [4, 7],
      [8, 13],
      [14, 18],
    ]);
    expect(wordRanges('one zwei three', seg.words!)).toEqual([[0, 3], null, [9, 14], null]);
  });

  it('split gives each side its words and splits where the right side starts', () => {
    const [a, b] = splitSegment([seg], 0, 8);
    expect(a).toEqual({ start: 0, end: 2, text: 'One two', words: seg.words!.slice(0, 2) });
    expect(b).toEqual({ start: 2, end: 4, text: 'three four', words: seg.words!.slice(2) });
  });

  it('merge joins the words, shift moves them', () => {
    const [a, b] = splitSegment([seg], 0, 8);
    expect(mergeSegments([a!, b!], 0)[0]).toEqual(seg);
    expect(shiftSegments([seg], 1.5)[0]!.words![3]).toEqual(w(4.5, 5.4, 'four'));
  });

  it('keeps the timing of unchanged words and spreads changed ones over their span', () => {
    const words = retimeWords(seg, 'One two and a half, four')!;
    expect(words.map((x) => x.text)).toEqual(['One', 'two', 'and', 'a', 'half,', 'four']);
    expect(words[0]).toEqual(w(0, 0.8, 'One'));
    expect(words[1]).toEqual(w(1, 1.8, 'two'));
    expect(words[5]).toEqual(w(3, 3.9, 'four'));
    // 'and a half,' fills 1.8 → 3.0 in proportion to length (3 + 1 + 5 characters).
    expect(words[2]!.start).toBe(1.8);
    expect(words[2]!.end).toBeCloseTo(1.8 + 1.2 * (3 / 9), 3);
    expect(words[4]!.end).toBe(3);
    // Case and punctuation changes keep the time.
    expect(retimeWords(seg, 'one, two three four.')![0]).toEqual(w(0, 0.8, 'one,'));
    expect(retimeWords({ start: 0, end: 1, text: 'x' }, 'y')).toBeUndefined();
  });

  it('validates words sent to the update API', () => {
    const ok = validateSegmentsInput([
      { start: 0, end: 2, text: 'a b', words: [w(0, 1, 'a'), w(1, 2, 'b')] },
    ]);
    expect(ok).toEqual({
      ok: true,
      segments: [{ start: 0, end: 2, text: 'a b', words: [w(0, 1, 'a'), w(1, 2, 'b')] }],
    });
    const bad = validateSegmentsInput([
      { start: 0, end: 2, text: 'a', words: [{ start: 2, end: 1, text: 'a' }] },
    ]);
    expect(bad).toEqual({
      ok: false,
      error: 'segments[0].words[0] must have finite times with 0 ≤ start ≤ end',
    });
    expect(validateSegmentsInput([{ start: 0, end: 2, text: 'a', words: 'x' }])).toEqual({
      ok: false,
      error: 'segments[0].words must be an array',
    });
  });
});
