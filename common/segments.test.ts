import { describe, it, expect } from 'vitest';
import {
  MAX_SEGMENTS,
  MAX_SEGMENT_TEXT,
  MIN_SEGMENT_SEC,
  mergeSegments,
  normalizeSegments,
  segmentsToPlainText,
  shiftSegments,
  splitSegment,
  validateSegmentsInput,
  type Segment,
} from './segments';

const seg = (start: number, end: number, text: string): Segment => ({ start, end, text });

describe('normalizeSegments', () => {
  it('leaves an already clean list equal (but copied)', () => {
    const input = [seg(0, 1.5, 'Hello.'), seg(1.5, 3, 'World.')];
    const out = normalizeSegments(input);
    expect(out).toEqual(input);
    expect(out).not.toBe(input);
    expect(out[0]).not.toBe(input[0]);
  });

  it('trims text and collapses whitespace runs into one space, keeping single line breaks', () => {
    const out = normalizeSegments([
      seg(0, 1, '  Hello \n\n  there\tfriend  '),
      seg(1, 2, 'line one\r\nline two'),
      seg(2, 3, 'no\u00a0break\u2003space'),
    ]);
    expect(out.map((s) => s.text)).toEqual(['Hello\nthere friend', 'line one\nline two', 'no break space']);
  });

  it('drops empty or whitespace-only texts', () => {
    const out = normalizeSegments([seg(0, 1, ''), seg(1, 2, ' \n\t '), seg(2, 3, 'kept')]);
    expect(out).toEqual([seg(2, 3, 'kept')]);
  });

  it('drops segments with non-finite times', () => {
    const out = normalizeSegments([
      seg(NaN, 1, 'a'),
      seg(0, NaN, 'b'),
      seg(Infinity, Infinity, 'c'),
      seg(0, -Infinity, 'd'),
      seg(0, 1, 'e'),
    ]);
    expect(out).toEqual([seg(0, 1, 'e')]);
  });

  it('drops segments whose text or times are not of the right type at runtime', () => {
    const junk = [
      { start: '0', end: 1, text: 'a' },
      { start: 0, end: 1, text: 42 },
      { start: 0, end: 1, text: 'ok' },
    ] as unknown as Segment[];
    expect(normalizeSegments(junk)).toEqual([seg(0, 1, 'ok')]);
  });

  it('clamps negative times to zero, without producing -0', () => {
    const out = normalizeSegments([seg(-2, 1, 'a'), seg(-0.0001, 2, 'b')]);
    expect(out).toEqual([seg(0, 1, 'a'), seg(0, 2, 'b')]);
    for (const s of out) expect(Object.is(s.start, -0)).toBe(false);
  });

  it('clamps to the duration when one is given', () => {
    const out = normalizeSegments([seg(8, 12, 'over the end'), seg(2, 4, 'inside')], 10);
    expect(out).toEqual([seg(2, 4, 'inside'), seg(8, 10, 'over the end')]);
  });

  it('keeps text of cues entirely past the duration as zero-length at the duration', () => {
    expect(normalizeSegments([seg(11, 12, 'late')], 10)).toEqual([seg(10, 10, 'late')]);
    // …and that is stable on a second pass.
    expect(normalizeSegments([seg(10, 10, 'late')], 10)).toEqual([seg(10, 10, 'late')]);
  });

  it('ignores an invalid duration', () => {
    for (const d of [NaN, -1, Infinity]) {
      expect(normalizeSegments([seg(5, 20, 'x')], d), String(d)).toEqual([seg(5, 20, 'x')]);
    }
  });

  it('accepts a zero duration (everything collapses to 0)', () => {
    expect(normalizeSegments([seg(0, 3, 'x')], 0)).toEqual([seg(0, 0, 'x')]);
  });

  it(`gives a segment whose end is not after its start ${MIN_SEGMENT_SEC}s, capped at the duration`, () => {
    expect(MIN_SEGMENT_SEC).toBe(0.5);
    expect(normalizeSegments([seg(3, 1, 'inverted')])).toEqual([seg(3, 3.5, 'inverted')]);
    expect(normalizeSegments([seg(3, 3, 'zero')])).toEqual([seg(3, 3.5, 'zero')]);
    expect(normalizeSegments([seg(9.8, 9.8, 'near end')], 10)).toEqual([seg(9.8, 10, 'near end')]);
  });

  it('fixes end ≤ start only after rounding (sub-millisecond segments)', () => {
    expect(normalizeSegments([seg(1.0001, 1.0004, 'tiny')])).toEqual([seg(1, 1.5, 'tiny')]);
  });

  it('rounds times to milliseconds', () => {
    const out = normalizeSegments([seg(1.23449, 2.0006, 'a'), seg(0.1 + 0.2, 1 / 3, 'b')]);
    expect(out).toEqual([seg(0.3, 0.333, 'b'), seg(1.234, 2.001, 'a')]);
  });

  it('sorts by start and keeps the input order of equal starts', () => {
    const out = normalizeSegments([
      seg(5, 6, 'c'),
      seg(1, 3, 'a1'),
      seg(1, 2, 'a2'),
      seg(2, 3, 'b'),
      seg(1, 9, 'a3'),
    ]);
    expect(out.map((s) => s.text)).toEqual(['a1', 'a2', 'a3', 'b', 'c']);
  });

  it('keeps overlapping segments as they are', () => {
    const input = [seg(0, 5, 'a'), seg(2, 3, 'b')];
    expect(normalizeSegments(input)).toEqual(input);
  });

  it('copies only start, end, text and a speaker id', () => {
    const input = [{ start: 0, end: 1, text: 'x', speaker: 'A', id: 7, color: 'red' }];
    expect(normalizeSegments(input)[0]).toStrictEqual({ start: 0, end: 1, text: 'x', speaker: 'A' });
  });

  it('does not mutate its input', () => {
    const input = [seg(5, 4, '  b  '), seg(-1, 2, 'a')];
    const copy = structuredClone(input);
    normalizeSegments(input, 3);
    expect(input).toEqual(copy);
  });

  it('is idempotent', () => {
    const messy = [
      seg(12, 11, ' late\n'),
      seg(-3, 0.0004, 'neg'),
      seg(4.44449, 4.4445, 'tiny'),
      seg(2, 2, 'same'),
      seg(NaN, 1, 'gone'),
      seg(1, 2, '   '),
    ];
    for (const d of [undefined, 10, 4.5]) {
      const once = normalizeSegments(messy, d);
      expect(normalizeSegments(once, d), String(d)).toEqual(once);
    }
  });

  it('returns [] for []', () => {
    expect(normalizeSegments([])).toEqual([]);
  });
});

describe('splitSegment', () => {
  const list = [seg(0, 2, 'Before.'), seg(2, 6, 'Hello world'), seg(6, 7, 'After.')];

  it('splits the text at the offset and the time proportionally to the characters', () => {
    // 'Hello world' has 11 characters; split before 'world' (offset 6) → 6/11 of 4 s.
    const out = splitSegment(list, 1, 6);
    expect(out).toEqual([
      seg(0, 2, 'Before.'),
      seg(2, 4.182, 'Hello'),
      seg(4.182, 6, 'world'),
      seg(6, 7, 'After.'),
    ]);
  });

  it('trims both parts whichever side of the space the offset is', () => {
    expect(
      splitSegment(list, 1, 5)
        .slice(1, 3)
        .map((s) => s.text),
    ).toEqual(['Hello', 'world']);
    expect(
      splitSegment(list, 1, 6)
        .slice(1, 3)
        .map((s) => s.text),
    ).toEqual(['Hello', 'world']);
  });

  it('splits in the middle of a word when asked to', () => {
    const [a, b] = splitSegment([seg(0, 10, 'abcdefghij')], 0, 3);
    expect(a).toEqual(seg(0, 3, 'abc'));
    expect(b).toEqual(seg(3, 10, 'defghij'));
  });

  it('works on the first and the last segment', () => {
    expect(splitSegment(list, 0, 3)[0]).toEqual(seg(0, 0.857, 'Bef'));
    expect(splitSegment(list, 2, 1).slice(2)).toEqual([seg(6, 6.167, 'A'), seg(6.167, 7, 'fter.')]);
  });

  it('does not mutate the input and keeps the other segments', () => {
    const copy = structuredClone(list);
    const out = splitSegment(list, 1, 6);
    expect(list).toEqual(copy);
    expect(out).toHaveLength(4);
    expect(out[0]).toBe(list[0]);
    expect(out[3]).toBe(list[2]);
  });

  it('throws RangeError for an index out of range', () => {
    for (const i of [-1, 3, 1.5, NaN]) {
      expect(() => splitSegment(list, i, 2), String(i)).toThrow(RangeError);
    }
    expect(() => splitSegment([], 0, 1)).toThrow(RangeError);
  });

  it('throws RangeError when a part would be empty', () => {
    expect(() => splitSegment(list, 1, 0)).toThrow(RangeError);
    expect(() => splitSegment(list, 1, 11)).toThrow(RangeError);
    expect(() => splitSegment([seg(0, 1, 'a  b')], 0, 1)).not.toThrow();
    expect(() => splitSegment([seg(0, 1, ' ab')], 0, 1)).toThrow(/both parts/);
    expect(() => splitSegment([seg(0, 1, 'ab ')], 0, 2)).toThrow(/both parts/);
  });

  it('throws RangeError for offsets outside the text or not integers', () => {
    for (const o of [-1, 12, 100, 2.5, NaN, Infinity]) {
      expect(() => splitSegment(list, 1, o), String(o)).toThrow(RangeError);
    }
  });

  it('refuses to split a surrogate pair', () => {
    const emoji = [seg(0, 4, 'a😀b')]; // 'a', high, low, 'b'
    expect(() => splitSegment(emoji, 0, 2)).toThrow(/splits a character/);
    expect(splitSegment(emoji, 0, 3).map((s) => s.text)).toEqual(['a😀', 'b']);
  });
});

describe('mergeSegments', () => {
  const list = [seg(0, 1, 'One'), seg(1.2, 2, 'two'), seg(2, 3, 'three')];

  it('joins the texts with a space, start of the first, end of the second', () => {
    expect(mergeSegments(list, 0)).toEqual([seg(0, 2, 'One two'), seg(2, 3, 'three')]);
    expect(mergeSegments(list, 1)).toEqual([seg(0, 1, 'One'), seg(1.2, 3, 'two three')]);
  });

  it('keeps the later end when the second segment ends first (overlap)', () => {
    expect(mergeSegments([seg(0, 5, 'long'), seg(1, 2, 'inside')], 0)).toEqual([seg(0, 5, 'long inside')]);
  });

  it('does not double spaces around untrimmed texts', () => {
    expect(mergeSegments([seg(0, 1, 'a '), seg(1, 2, ' b')], 0)[0]?.text).toBe('a b');
  });

  it('undoes a split', () => {
    const original = [seg(0, 4, 'Hello world')];
    expect(mergeSegments(splitSegment(original, 0, 5), 0)).toEqual(original);
  });

  it('does not mutate the input', () => {
    const copy = structuredClone(list);
    mergeSegments(list, 0);
    expect(list).toEqual(copy);
  });

  it('throws RangeError when there is no next segment or no such index', () => {
    for (const i of [2, 3, -1, 0.5, NaN]) {
      expect(() => mergeSegments(list, i), String(i)).toThrow(RangeError);
    }
    expect(() => mergeSegments([seg(0, 1, 'alone')], 0)).toThrow(/no segment after/);
  });
});

describe('shiftSegments', () => {
  const list = [seg(1, 2, 'a'), seg(3, 4, 'b'), seg(5, 6, 'c')];

  it('shifts every segment by default', () => {
    expect(shiftSegments(list, 1.5)).toEqual([seg(2.5, 3.5, 'a'), seg(4.5, 5.5, 'b'), seg(6.5, 7.5, 'c')]);
  });

  it('shifts only from fromIndex on, keeping earlier segments as they are', () => {
    const out = shiftSegments(list, -0.5, 1);
    expect(out).toEqual([seg(1, 2, 'a'), seg(2.5, 3.5, 'b'), seg(4.5, 5.5, 'c')]);
    expect(out[0]).toBe(list[0]);
  });

  it('clamps at zero', () => {
    expect(shiftSegments(list, -1.5)).toEqual([seg(0, 0.5, 'a'), seg(1.5, 2.5, 'b'), seg(3.5, 4.5, 'c')]);
    expect(shiftSegments(list, -10)).toEqual([seg(0, 0, 'a'), seg(0, 0, 'b'), seg(0, 0, 'c')]);
    for (const s of shiftSegments(list, -10)) expect(Object.is(s.start, -0)).toBe(false);
  });

  it('clamps to the duration when given', () => {
    expect(shiftSegments(list, 1, 0, 6.5)).toEqual([seg(2, 3, 'a'), seg(4, 5, 'b'), seg(6, 6.5, 'c')]);
  });

  it('rounds to milliseconds', () => {
    expect(shiftSegments([seg(0.1, 0.2, 'x')], 0.2)).toEqual([seg(0.3, 0.4, 'x')]);
  });

  it('does not reorder, so indices stay valid', () => {
    const out = shiftSegments(list, -4, 2);
    expect(out.map((s) => s.text)).toEqual(['a', 'b', 'c']);
    expect(out[2]).toEqual(seg(1, 2, 'c'));
  });

  it('accepts fromIndex = length as a no-op and a zero delta', () => {
    expect(shiftSegments(list, 3, 3)).toEqual(list);
    expect(shiftSegments(list, 0)).toEqual(list);
  });

  it('does not mutate the input', () => {
    const copy = structuredClone(list);
    shiftSegments(list, 2);
    expect(list).toEqual(copy);
  });

  it('throws RangeError for a non-finite delta or a bad fromIndex', () => {
    expect(() => shiftSegments(list, NaN)).toThrow(RangeError);
    expect(() => shiftSegments(list, Infinity)).toThrow(RangeError);
    for (const i of [-1, 4, 1.5]) {
      expect(() => shiftSegments(list, 1, i), String(i)).toThrow(RangeError);
    }
  });
});

describe('segmentsToPlainText', () => {
  it('joins texts with newlines', () => {
    expect(segmentsToPlainText([seg(0, 1, 'Hello.'), seg(1, 2, 'How are you?')])).toBe(
      'Hello.\nHow are you?',
    );
  });
  it('is empty for no segments', () => {
    expect(segmentsToPlainText([])).toBe('');
  });
});

describe('validateSegmentsInput', () => {
  const errorOf = (v: unknown, d?: number): string => {
    const r = validateSegmentsInput(v, d);
    if (r.ok) throw new Error('expected a failure');
    return r.error;
  };

  it('accepts a valid list and returns it normalised', () => {
    const r = validateSegmentsInput([
      { start: 3, end: 4, text: '  second\nline ' },
      { start: 0, end: 2.00049, text: 'first' },
      { start: 5, end: 5, text: 'zero length' },
      { start: 6, end: 7, text: '   ' },
    ]);
    expect(r).toEqual({
      ok: true,
      segments: [seg(0, 2, 'first'), seg(3, 4, 'second\nline'), seg(5, 5.5, 'zero length')],
    });
  });

  it('accepts an empty list', () => {
    expect(validateSegmentsInput([])).toEqual({ ok: true, segments: [] });
  });

  it('clamps to the duration', () => {
    expect(validateSegmentsInput([{ start: 1, end: 99, text: 'x' }], 30)).toEqual({
      ok: true,
      segments: [seg(1, 30, 'x')],
    });
  });

  it('drops extra properties', () => {
    const r = validateSegmentsInput([{ start: 0, end: 1, text: 'x', __proto__x: 1, admin: true }]);
    expect(r.ok && r.segments[0]).toStrictEqual({ start: 0, end: 1, text: 'x' });
  });

  it('rejects anything but an array', () => {
    for (const v of [undefined, null, {}, 'x', 1, { length: 0 }]) {
      expect(errorOf(v), String(v)).toBe('segments must be an array');
    }
  });

  it(`accepts ${MAX_SEGMENTS} segments and rejects one more`, () => {
    expect(MAX_SEGMENTS).toBe(20_000);
    const many = Array.from({ length: MAX_SEGMENTS }, (_, i) => ({ start: i, end: i + 1, text: `s${i}` }));
    const r = validateSegmentsInput(many);
    expect(r.ok && r.segments.length).toBe(MAX_SEGMENTS);
    many.push({ start: 0, end: 1, text: 'one too many' });
    expect(errorOf(many)).toMatch(/at most 20000/);
  });

  it('rejects elements that are not objects', () => {
    expect(errorOf([{ start: 0, end: 1, text: 'ok' }, null])).toBe('segments[1] must be an object');
    expect(errorOf(['text'])).toBe('segments[0] must be an object');
    expect(errorOf([[0, 1, 'x']])).toBe('segments[0] must be an object');
  });

  it('rejects bad start and end values', () => {
    for (const start of [undefined, '0', -1, NaN, Infinity, null]) {
      expect(errorOf([{ start, end: 1, text: 'x' }]), String(start)).toBe(
        'segments[0].start must be a finite number ≥ 0',
      );
    }
    for (const end of [undefined, '1', -0.5, NaN, Infinity]) {
      expect(errorOf([{ start: 0, end, text: 'x' }]), String(end)).toBe(
        'segments[0].end must be a finite number ≥ 0',
      );
    }
    expect(errorOf([{ start: 2, end: 1, text: 'x' }])).toBe('segments[0].end must not be before start');
  });

  it('rejects a text that is not a string or too long', () => {
    expect(errorOf([{ start: 0, end: 1 }])).toBe('segments[0].text must be a string');
    expect(errorOf([{ start: 0, end: 1, text: 5 }])).toBe('segments[0].text must be a string');
    expect(MAX_SEGMENT_TEXT).toBe(5000);
    const ok = validateSegmentsInput([{ start: 0, end: 1, text: 'x'.repeat(5000) }]);
    expect(ok.ok).toBe(true);
    expect(errorOf([{ start: 0, end: 1, text: 'x'.repeat(5001) }])).toBe(
      'segments[0].text must be at most 5000 characters',
    );
  });

  it('names the first offending element', () => {
    const v = [
      { start: 0, end: 1, text: 'a' },
      { start: 1, end: 2, text: 'b' },
      { start: 3, end: 2, text: 'c' },
      { start: -1, end: 2, text: 'd' },
    ];
    expect(errorOf(v)).toBe('segments[2].end must not be before start');
  });
});
