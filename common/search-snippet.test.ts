import { describe, expect, it } from 'vitest';
import { findMatches, linkedSegment, searchTerms, SNIPPET_MAX, snippetOf } from './search-snippet';

const marked = (s: { text: string; matches: { start: number; end: number }[] }) => {
  let out = '';
  let at = 0;
  for (const m of s.matches) {
    out += `${s.text.slice(at, m.start)}[${s.text.slice(m.start, m.end)}]`;
    at = m.end;
  }
  return out + s.text.slice(at);
};
const seg = (text: string, index = 3, start = 12.5) => ({ index, start, text });

describe('search snippets', () => {
  it('splits a query into lowercased terms, as the list API does', () => {
    expect(searchTerms('  Budget, MEETING!  ')).toEqual(['budget', 'meeting']);
    expect(searchTerms('a b c d e f g h i j')).toHaveLength(8);
    expect(searchTerms('...')).toEqual([]);
  });

  it('marks every term at the start of a word, whatever its case', () => {
    const s = snippetOf(seg('The Budget meeting: budgets, rebudget and BUDGET.'), ['budget'])!;
    expect(marked(s)).toBe('The [Budget] meeting: [budget]s, rebudget and [BUDGET].');
    expect(s).toMatchObject({ segment: 3, start: 12.5, truncated_start: false, truncated_end: false });
    const two = snippetOf(seg('coffee with signal, then signals and coffee'), ['signal', 'coffee'])!;
    expect(marked(two)).toBe('[coffee] with [signal], then [signal]s and [coffee]');
  });

  it('keeps accents and letters that change length when lowercased', () => {
    expect(marked(snippetOf(seg('Renée went to Café Zürich'), ['café', 'zürich'])!)).toBe(
      'Renée went to [Café] [Zürich]',
    );
    // Decomposed text is shown composed, and matched.
    expect(marked(snippetOf(seg('Cafe\u0301 au lait'), searchTerms('café'))!)).toBe('[Café] au lait');
    // Dotted capital I matches 'i', and the offsets point into the original text.
    expect(marked(snippetOf(seg('İİ İstanbul trip'), ['istanbul'])!)).toBe('İİ [İstanbul] trip');
    // An accented letter is part of the word: 'ecole' does not match inside 'école'.
    expect(snippetOf(seg('une école'), ['cole'])).toBeNull();
  });

  it('matches inside words in Chinese and Japanese, which have no spaces', () => {
    expect(marked(snippetOf(seg('我们讨论了上海发布会的预算和时间安排'), ['预算'])!)).toBe(
      '我们讨论了上海发布会的[预算]和时间安排',
    );
    expect(
      marked(snippetOf(seg('次の会議では東京タワーの撮影予算について'), searchTerms('東京タワー'))!),
    ).toBe('次の会議では[東京タワー]の撮影予算について');
  });

  it('is null when the text does not match (a name-only match has no snippet)', () => {
    expect(snippetOf(seg('nothing to see'), ['budget'])).toBeNull();
    expect(snippetOf(seg(''), ['budget'])).toBeNull();
    expect(snippetOf(seg('anything'), [])).toBeNull();
  });

  it('cuts long text around the first match, between words, and says where it cut', () => {
    const before = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const after = Array.from({ length: 40 }, (_, i) => `tail${i}`).join(' ');
    const s = snippetOf(seg(`${before} the quarterly budget ${after} budget again`), ['budget'])!;
    expect(s.truncated_start).toBe(true);
    expect(s.truncated_end).toBe(true);
    expect(s.text.length).toBeLessThanOrEqual(SNIPPET_MAX);
    expect(s.text).toMatch(/^word\d+ /); // starts at a whole word
    expect(s.text).toMatch(/ tail\d+$/); // ends at a whole word
    expect(s.text.indexOf('budget')).toBeLessThanOrEqual(45);
    expect(s.matches).toEqual([{ start: s.text.indexOf('budget'), end: s.text.indexOf('budget') + 6 }]);
    // A match at the very start or end keeps its side uncut.
    expect(snippetOf(seg(`budget ${after}`), ['budget'])!.truncated_start).toBe(false);
    const end = snippetOf(seg(`${after} budget`), ['budget'])!;
    expect(end.truncated_end).toBe(false);
    expect(end.text.endsWith('budget')).toBe(true);
  });

  it('never cuts a character in two, in long text without spaces', () => {
    const emoji = '😀'.repeat(100);
    const s = snippetOf(seg(`${emoji}预算${emoji}`), ['预算'])!;
    expect(s.text).toContain('预算');
    // No lone surrogate: every UTF-16 surrogate is part of a whole code point.
    expect([...s.text].every((c) => c.length === 2 || !/[\uD800-\uDFFF]/.test(c))).toBe(true);
    expect(s.text.length).toBeLessThanOrEqual(SNIPPET_MAX + 1);
  });

  it('merges overlapping matches of several terms', () => {
    expect(findMatches('budgeting', ['budget', 'budgeting'])).toEqual([{ start: 0, end: 9 }]);
  });
});

describe('the segment a transcript link opens at', () => {
  const segs = [
    { start: 0, end: 2 },
    { start: 3, end: 5 },
    { start: 5, end: 9 },
  ];
  it('takes seg when it names a segment, else the time', () => {
    expect(linkedSegment('2', null, segs)).toBe(2);
    expect(linkedSegment('0', '4', segs)).toBe(0);
    expect(linkedSegment(null, '4.5', segs)).toBe(1);
    expect(linkedSegment(null, '2.5', segs)).toBe(1); // between segments: the next
    expect(linkedSegment('9', '6', segs)).toBe(2); // a segment that no longer exists: the time
  });
  it('ignores anything else', () => {
    for (const [seg, t] of [
      ['-1', null],
      ['1e2', null],
      ['3', null],
      [' 1', null],
      ['abc', 'xyz'],
      [null, '-4'],
      [null, 'Infinity'],
      [null, '99'],
      [null, '1e3'],
      [null, null],
    ] as const) {
      expect(linkedSegment(seg, t, segs), `${seg} ${t}`).toBeNull();
    }
    expect(linkedSegment('0', null, [])).toBeNull();
  });
});
