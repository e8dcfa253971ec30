// Find and replace across a transcript's segments, shared by the editor (counts, marks) and the
// update API (applies it, keeping word timings through the change).
import { retimeWords } from './words';
import type { Segment } from './segments';

/** The longest term either side accepts. */
export const MAX_FIND_LENGTH = 200;

/** Case-insensitive, literal (no pattern characters), whole Unicode: 'ÄPFEL' finds 'äpfel'. */
export function findPattern(term: string): RegExp | null {
  if (!term) return null;
  return new RegExp(term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
}

/** How many times the term occurs in the text. */
export function countIn(text: string, term: string): number {
  const re = findPattern(term);
  return re ? (text.match(re)?.length ?? 0) : 0;
}

/** Every occurrence in the transcript, and the segments that hold one. */
export function countMatches(segments: readonly Segment[], term: string) {
  let total = 0;
  const indexes: number[] = [];
  for (const [i, s] of segments.entries()) {
    const n = countIn(s.text, term);
    if (n > 0) {
      total += n;
      indexes.push(i);
    }
  }
  return { total, indexes };
}

/**
 * Replaces every occurrence (only in segment `only` when given). Words keep their timings where
 * they did not change; a segment left without text is dropped by the caller's normalisation.
 */
export function replaceInSegments(
  segments: readonly Segment[],
  find: string,
  replacement: string,
  only?: number,
): { segments: Segment[]; count: number } {
  const re = findPattern(find);
  if (!re) return { segments: [...segments], count: 0 };
  let count = 0;
  const out = segments.map((s, i) => {
    if (only !== undefined && i !== only) return s;
    let n = 0;
    const text = s.text.replace(re, () => {
      n++;
      return replacement;
    });
    if (n === 0) return s;
    count += n;
    // Everything else about the segment (its speaker …) stays; its words follow the new text.
    const { words: _old, ...rest } = s;
    const words = retimeWords(s, text);
    return words ? { ...rest, text, words } : { ...rest, text };
  });
  return { segments: out, count };
}
