// What the dashboard's search shows under a result: the segment text around the first match,
// with the matches as offsets (never markup: the page marks them itself, so a segment's text can
// never become HTML). Pure, so its rules are tested without a database.

/** Where a search matched inside a transcript's text (GET /self-api/v1/transcripts?q=…). */
export interface SearchSnippet {
  /** The segment's index in the transcript (0-based), for /transcript/<id>?seg=<index>. */
  segment: number;
  /** The segment's start, in seconds. */
  start: number;
  /** Part of the segment's text (NFC), at most SNIPPET_MAX UTF-16 code units plus a whole match. */
  text: string;
  /** Matches in `text` as [start, end) UTF-16 offsets, in order, not overlapping. */
  matches: { start: number; end: number }[];
  /** Text was cut before / after the part shown (the page shows an ellipsis). */
  truncated_start: boolean;
  truncated_end: boolean;
}

/** Longest snippet text, and how much of it comes before the first match. */
export const SNIPPET_MAX = 140;
const SNIPPET_BEFORE = 40;

// Scripts written without spaces between words: a term matches anywhere in the text there.
const NO_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/** The terms a search query looks for: lowercased words, at most eight (as the list API does). */
export function searchTerms(q: string): string[] {
  return q
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
}

/** A term in a script without spaces matches inside words too. */
export const matchesAnywhere = (term: string): boolean => NO_SPACES.test(term);

/**
 * The text lowercased, with, for each of its code units, the offset in the original it came from
 * (lowercasing can change lengths, e.g. 'ẞ' or ligatures).
 */
function lowered(text: string): { lower: string; origin: number[] } {
  let lower = '';
  const origin: number[] = [];
  let i = 0;
  for (const ch of text) {
    // Dotted capital I lowercases to 'i' plus a combining dot; the database (and people) read 'i'.
    const l = ch === 'İ' ? 'i' : ch.toLowerCase();
    lower += l;
    for (let k = 0; k < l.length; k++) origin.push(i);
    i += ch.length;
  }
  origin.push(i);
  return { lower, origin };
}

/**
 * Every match of the terms in `text` as [start, end) offsets into `text`, sorted, overlaps merged:
 * case-insensitive; a term matches at the start of a word (as the search's prefix match does), or
 * anywhere in scripts written without spaces.
 */
export function findMatches(text: string, terms: readonly string[]): { start: number; end: number }[] {
  const { lower, origin } = lowered(text);
  const found: { start: number; end: number }[] = [];
  for (const term of terms) {
    if (!term) continue;
    const anywhere = matchesAnywhere(term);
    for (let at = lower.indexOf(term); at !== -1; at = lower.indexOf(term, at + 1)) {
      if (!anywhere && at > 0 && WORD_CHAR.test(lastChar(lower, at))) continue;
      found.push({ start: origin[at]!, end: origin[at + term.length]! });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: { start: number; end: number }[] = [];
  for (const m of found) {
    const last = merged[merged.length - 1];
    if (last && m.start <= last.end) last.end = Math.max(last.end, m.end);
    else merged.push({ ...m });
  }
  return merged;
}

/** The character (whole code point) that ends just before `at`. */
function lastChar(s: string, at: number): string {
  const code = s.charCodeAt(at - 1);
  return code >= 0xdc00 && code <= 0xdfff && at >= 2 ? s.slice(at - 2, at) : s.slice(at - 1, at);
}

const isLowSurrogate = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff;
};

/**
 * The snippet of one segment's text for the terms, or null when none matches: up to SNIPPET_MAX
 * code units around the first match, cut between words where the text has spaces.
 */
export function snippetOf(
  segment: { index: number; start: number; text: string },
  terms: readonly string[],
): SearchSnippet | null {
  const text = segment.text.normalize('NFC').replace(/\s+/g, ' ');
  const all = findMatches(text, terms);
  const first = all[0];
  if (!first) return null;
  let from = 0;
  let to = text.length;
  if (text.length > SNIPPET_MAX) {
    from = Math.max(0, first.start - SNIPPET_BEFORE);
    // Start at a word: after the first space between the cut and the match, if there is one.
    if (from > 0 && text[from - 1] !== ' ') {
      const space = text.indexOf(' ', from);
      if (space !== -1 && space < first.start) from = space + 1;
    }
    to = Math.min(text.length, Math.max(from + SNIPPET_MAX, first.end));
    if (to < text.length && text[to] !== ' ') {
      const space = text.lastIndexOf(' ', to);
      if (space > first.end) to = space;
    }
    if (from > 0 && isLowSurrogate(text, from)) from++;
    if (to < text.length && isLowSurrogate(text, to)) to--;
  }
  // Spaces at the cut edges are not shown.
  while (from < first.start && text[from] === ' ') from++;
  while (to > first.end && text[to - 1] === ' ') to--;
  return {
    segment: segment.index,
    start: segment.start,
    text: text.slice(from, to),
    matches: all
      .filter((m) => m.start >= from && m.end <= to)
      .map((m) => ({ start: m.start - from, end: m.end - from })),
    truncated_start: from > 0,
    truncated_end: to < text.length,
  };
}

/**
 * The segment a transcript link points at: `seg` (an index, as search results link) when it names
 * one, else the segment playing at `t` seconds; null for anything else (a bad link is ignored).
 */
export function linkedSegment(
  seg: string | null,
  t: string | null,
  segments: readonly { start: number; end: number }[],
): number | null {
  if (seg !== null && /^\d{1,6}$/.test(seg) && Number(seg) < segments.length) return Number(seg);
  if (t === null || !/^\d{1,7}(\.\d{1,3})?$/.test(t)) return null;
  const time = Number(t);
  const at = segments.findIndex((s) => time >= s.start && time < s.end);
  if (at !== -1) return at;
  // Between segments: the next one.
  const next = segments.findIndex((s) => s.start >= time);
  return next === -1 ? null : next;
}
