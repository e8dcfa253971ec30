// Whisper's loops: a decoder stuck on one phrase repeats it for the rest of a window ("thank you
// thank you thank you …"), and a chunk decoded again after a seam can start with the sentence the
// previous chunk ended on. Both are collapsed before anyone sees them.
import { wordRanges, type Segment, type Word } from './segments';

const key = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, '')
    .replace(/\s+/g, ' ')
    .trim();

/** Longest repeated phrase looked for, in words. */
const MAX_PHRASE = 16;

/**
 * A phrase of k words said n times in a row is a loop when n ≥ 3 and n·k ≥ 8 (so "no, no, no" and
 * a phrase said twice stay, a sentence said three times or a word said eight times collapse): the
 * first time is kept with its timing, the repeats are dropped.
 */
export function collapseRepeatedWords<W extends Word>(words: readonly W[]): W[] {
  const keys = words.map((w) => key(w.text));
  const out: W[] = [];
  let i = 0;
  while (i < words.length) {
    let skipped = false;
    for (let k = 1; k <= MAX_PHRASE && i + 2 * k <= words.length; k++) {
      let n = 1;
      while (i + (n + 1) * k <= words.length && samePhrase(keys, i, i + n * k, k)) n++;
      if (n >= 3 && n * k >= 8) {
        out.push(...words.slice(i, i + k));
        i += n * k;
        skipped = true;
        break;
      }
    }
    if (!skipped) {
      out.push(words[i]!);
      i++;
    }
  }
  return out;
}

function samePhrase(keys: readonly string[], a: number, b: number, k: number): boolean {
  for (let x = 0; x < k; x++) if (keys[a + x] !== keys[b + x] || keys[a + x] === '') return false;
  return true;
}

/** Collapses a loop inside one segment's text when it has no words (segment-timed engines). */
function collapseText(text: string): string {
  const parts = text.split(/\s+/).filter(Boolean);
  const words = parts.map((t, i) => ({ start: i, end: i, text: t }));
  const kept = collapseRepeatedWords(words);
  return kept.length === words.length ? text : kept.map((w) => w.text).join(' ');
}

/** The text with the dropped words cut out (found by position, so any script works). */
function withoutWords(text: string, all: readonly Word[], kept: ReadonlySet<Word>): string {
  const ranges = wordRanges(text, all);
  let out = '';
  let cursor = 0;
  all.forEach((w, i) => {
    const r = ranges[i];
    if (kept.has(w) || !r) return;
    out += text.slice(cursor, r[0]);
    cursor = r[1];
  });
  return (out + text.slice(cursor)).replace(/\s+/g, ' ').trim();
}

export interface RepetitionGuard {
  /** The segment as it should be kept (a loop inside it collapsed), or null to drop it. */
  accept(segment: Segment): Segment | null;
}

/**
 * Drops a segment that says again what the one before it said (a loop across segments, or the
 * repeat of a chunk seam), and collapses loops inside a segment. Times are never changed.
 */
export function createRepetitionGuard(): RepetitionGuard {
  let previous: { key: string; end: number } | null = null;
  return {
    accept(segment) {
      let seg = segment;
      if (seg.words?.length) {
        const words = collapseRepeatedWords(seg.words);
        if (words.length !== seg.words.length) {
          seg = { ...seg, text: withoutWords(seg.text, seg.words, new Set(words)), words };
          seg.end = Math.min(seg.end, Math.max(...words.map((w) => w.end)));
        }
      } else {
        const text = collapseText(seg.text);
        if (text !== seg.text) seg = { ...seg, text };
      }
      const k = key(seg.text);
      if (k === '') return null;
      if (previous) {
        const repeat =
          k === previous.key ||
          // A seam repeat: the tail of the previous segment, said again right after it.
          (k.length >= 12 && previous.key.endsWith(k) && seg.start <= previous.end + 2);
        if (repeat) return null;
      }
      previous = { key: k, end: seg.end };
      return seg;
    },
  };
}
