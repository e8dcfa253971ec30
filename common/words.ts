// Word-level helpers shared by the editor (browser) and the update API (server): cutting text into
// words, and keeping word timings through a text edit.
import { normalizeWords, roundMs, type Segment, type Word } from './segments';

/** Scripts written without spaces between words: each character is timed as one word. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const PUNCT = /^[\p{P}\p{S}]+$/u;

/**
 * The words of a text, in order: runs separated by white space; in scripts written without spaces
 * (Chinese, Japanese, Thai …) every character is a word. Punctuation stays on the word before it
 * ('world,' · '世界。').
 */
export function tokenizeWords(text: string): string[] {
  const out: string[] = [];
  for (const run of text.split(/\s+/)) {
    if (run === '') continue;
    if (!UNSPACED.test(run)) {
      out.push(run);
      continue;
    }
    // Inside an unspaced run: one word per character, punctuation joins the word before it, and
    // embedded Latin letters or digits ('iPhone', '2024') stay together.
    let latin = false;
    for (const ch of run) {
      if (PUNCT.test(ch) && out.length > 0) {
        out[out.length - 1] += ch;
        latin = false;
      } else if (UNSPACED.test(ch) || PUNCT.test(ch)) {
        out.push(ch);
        latin = false;
      } else if (latin) out[out.length - 1] += ch;
      else {
        out.push(ch);
        latin = true;
      }
    }
  }
  return out;
}

/** Whether most of the letters of a text belong to scripts written without spaces. */
export function isUnspacedText(text: string): boolean {
  let unspaced = 0;
  let letters = 0;
  for (const ch of text) {
    if (!/\p{L}/u.test(ch)) continue;
    letters++;
    if (UNSPACED.test(ch)) unspaced++;
  }
  return letters > 0 && unspaced * 2 > letters;
}

const key = (w: string) => w.toLowerCase().replace(/[\p{P}\p{S}]+/gu, '');

/** Longest common subsequence of two word lists (by key): pairs of matching indices, in order. */
function commonWords(a: readonly string[], b: readonly string[]): [number, number][] {
  const n = a.length;
  const m = b.length;
  // Edits touch one segment: a few hundred words at most, so the quadratic table is small.
  const table = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i]![j] =
        a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/**
 * The words of `newText` timed from `segment`'s words: a word the edit left alone keeps its timing;
 * new or changed words share the time between the unchanged words around them, in proportion to
 * their length. A segment without words gets none (it stays timed per segment).
 */
export function retimeWords(segment: Segment, newText: string): Word[] | undefined {
  const old = segment.words;
  if (!old || old.length === 0) return undefined;
  const tokens = tokenizeWords(newText);
  if (tokens.length === 0) return undefined;
  if (tokens.length > 2000 || old.length > 2000) return undefined;
  const pairs = commonWords(
    old.map((w) => key(w.text)),
    tokens.map(key),
  );
  const timed: (Word | null)[] = tokens.map(() => null);
  for (const [i, j] of pairs) {
    const { start, end, speaker } = old[i]!;
    timed[j] = speaker ? { start, end, text: tokens[j]!, speaker } : { start, end, text: tokens[j]! };
  }

  // Fill each run of untimed words between the timed neighbours (or the segment's edges).
  let j = 0;
  while (j < tokens.length) {
    if (timed[j]) {
      j++;
      continue;
    }
    let k = j;
    while (k < tokens.length && !timed[k]) k++;
    const from = j > 0 ? timed[j - 1]!.end : segment.start;
    const to = k < tokens.length ? timed[k]!.start : segment.end;
    const span = Math.max(0, to - from);
    const total = tokens.slice(j, k).reduce((n, t) => n + t.length, 0);
    let at = from;
    for (let x = j; x < k; x++) {
      const share = total > 0 ? (span * tokens[x]!.length) / total : span / (k - j);
      timed[x] = { start: roundMs(at), end: roundMs(at + share), text: tokens[x]! };
      at += share;
    }
    j = k;
  }
  return normalizeWords(timed as Word[], segment.start, segment.end);
}
