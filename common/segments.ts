// Transcript segments: timed pieces of text, in seconds from the start of the media. Pure and
// dependency-free so the editor (browser) and the update API (server) apply the same rules.
//
// Every function here returns new arrays and new segment objects where it changes something; the
// input is never mutated.

/** One word's timing inside a segment (seconds from the start of the media). */
export interface Word {
  start: number;
  end: number;
  /** The word as it appears in the segment's text (punctuation attached, no surrounding space). */
  text: string;
  /** Who said it (a speaker id of the transcript), when it differs from nobody; see ./speakers. */
  speaker?: string;
}

export interface Segment {
  /** Seconds from the start of the media. */
  start: number;
  end: number;
  /** The segment's text: what is shown, searched and exported. */
  text: string;
  /**
   * Word timings when the engine or the caption file gave them: ordered, non-overlapping, inside
   * [start, end]. Absent = timed per segment only. Their texts follow the segment's text in order.
   */
  words?: Word[];
  /** Who said it: the id of one of the transcript's speakers (./speakers). Absent = nobody named. */
  speaker?: string;
}

/** What a speaker id looks like (ids are short, e.g. 's1'; see ./speakers). */
export const SPEAKER_ID_RE = /^[A-Za-z0-9_-]{1,32}$/;
const speakerOf = (value: unknown): string | undefined =>
  typeof value === 'string' && SPEAKER_ID_RE.test(value) ? value : undefined;

/** `seg` with `speaker` set (or removed when undefined), without mutating it. */
function withSpeaker<T extends Segment | Word>(seg: T, speaker: string | undefined): T {
  const { speaker: _old, ...rest } = seg;
  return (speaker === undefined ? rest : { ...rest, speaker }) as T;
}

/** Most segments the update API accepts in one transcript. */
export const MAX_SEGMENTS = 20_000;
/** Longest text (UTF-16 code units, as `String#length`) the update API accepts per segment. */
export const MAX_SEGMENT_TEXT = 5000;
/**
 * Length given to a segment whose end is not after its start, so its text stays on screen
 * (capped at the media duration when one is known).
 */
export const MIN_SEGMENT_SEC = 0.5;

export const roundMs = (seconds: number): number => Math.round(seconds * 1000) / 1000;

/** Trim, and turn every whitespace run (tabs, no-break spaces, …) into one space. */
const cleanLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
/**
 * A segment's text: lines cleaned, blank lines dropped. A line break someone typed (Shift+Enter
 * in the editor) stays one line break; subtitle cues re-wrap the text their own way.
 */
const cleanText = (text: string): string =>
  text
    .split(/\r\n|[\n\r\u2028\u2029]/)
    .map(cleanLine)
    .filter(Boolean)
    .join('\n');

const validDuration = (durationSec: number | undefined): number | undefined =>
  typeof durationSec === 'number' && Number.isFinite(durationSec) && durationSec >= 0
    ? durationSec
    : undefined;

// Math.max(0, -0) is +0, so clamped times are never -0.
const clamp = (seconds: number, max: number | undefined): number => {
  const low = Math.max(0, seconds);
  return max === undefined ? low : Math.min(low, max);
};

/**
 * The canonical form of a segment list:
 * - text trimmed, whitespace runs (line breaks included) collapsed to one space; empty texts dropped;
 * - segments with a non-finite start or end dropped;
 * - times clamped to ≥ 0 and, when `durationSec` is a finite number ≥ 0, to ≤ durationSec
 *   (an invalid duration is ignored), then rounded to milliseconds;
 * - a segment whose end is not after its start keeps its text: its end becomes
 *   start + MIN_SEGMENT_SEC, capped at the duration. The only zero-length segments that survive
 *   therefore sit exactly at the duration (cues that started at or after the end of the media);
 * - sorted by start, stable (equal starts keep their input order). Overlaps are left alone;
 * - words (when given) are cleaned by normalizeWords: inside the segment, ordered, non-overlapping.
 * Only `start`, `end`, `text`, `words` and a well-formed `speaker` id are copied; other properties
 * are dropped. Idempotent.
 */
export function normalizeSegments(segments: readonly Segment[], durationSec?: number): Segment[] {
  const max = validDuration(durationSec);
  const out: Segment[] = [];
  for (const seg of segments) {
    const text = typeof seg.text === 'string' ? cleanText(seg.text) : '';
    if (text === '' || !Number.isFinite(seg.start) || !Number.isFinite(seg.end)) continue;
    const start = clamp(roundMs(seg.start), max);
    let end = clamp(roundMs(seg.end), max);
    if (end <= start) end = clamp(roundMs(start + MIN_SEGMENT_SEC), max);
    const words = Array.isArray(seg.words) ? normalizeWords(seg.words, start, end) : [];
    const clean: Segment = words.length > 0 ? { start, end, text, words } : { start, end, text };
    const speaker = speakerOf(seg.speaker);
    out.push(speaker ? { ...clean, speaker } : clean);
  }
  // Array#sort is stable (ES2019).
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Word timings made safe to store and play: blank or non-finite words dropped, times rounded to
 * milliseconds and clamped into [segStart, segEnd], ordered by start, and each word starting no
 * earlier than the previous one ends (no overlaps; zero-length words are allowed).
 */
export function normalizeWords(words: readonly Word[], segStart: number, segEnd: number): Word[] {
  const clean: Word[] = [];
  for (const w of words) {
    if (typeof w !== 'object' || w === null) continue;
    const text = typeof w.text === 'string' ? cleanLine(w.text) : '';
    if (text === '' || !Number.isFinite(w.start) || !Number.isFinite(w.end)) continue;
    const start = Math.min(segEnd, Math.max(segStart, roundMs(w.start)));
    const end = Math.min(segEnd, Math.max(start, roundMs(w.end)));
    const speaker = speakerOf(w.speaker);
    clean.push(speaker ? { start, end, text, speaker } : { start, end, text });
  }
  clean.sort((a, b) => a.start - b.start);
  let prevEnd = segStart;
  for (const w of clean) {
    if (w.start < prevEnd) w.start = prevEnd;
    if (w.end < w.start) w.end = w.start;
    prevEnd = w.end;
  }
  return clean;
}

function checkIndex(segments: readonly Segment[], index: number, what: string): Segment {
  const seg = Number.isInteger(index) ? segments[index] : undefined;
  if (seg === undefined) throw new RangeError(`${what}: no segment at index ${index}`);
  return seg;
}

/**
 * Split segment `index` at `charOffset` (a UTF-16 index into its text, as given by a textarea's
 * selectionStart). Both halves are trimmed. The split time divides the segment proportionally to
 * `charOffset / text.length` and is rounded to milliseconds.
 * Throws RangeError when the index is out of range, the offset is not an integer inside the text
 * or falls inside a surrogate pair, or either half would be empty.
 */
export function splitSegment(segments: readonly Segment[], index: number, charOffset: number): Segment[] {
  const seg = checkIndex(segments, index, 'splitSegment');
  const { text } = seg;
  if (!Number.isInteger(charOffset) || charOffset <= 0 || charOffset >= text.length) {
    throw new RangeError(`splitSegment: offset ${charOffset} is not inside the text`);
  }
  const before = text.charCodeAt(charOffset - 1);
  if (before >= 0xd800 && before <= 0xdbff) {
    throw new RangeError(`splitSegment: offset ${charOffset} splits a character`);
  }
  const left = text.slice(0, charOffset).trim();
  const right = text.slice(charOffset).trim();
  if (left === '' || right === '') {
    throw new RangeError('splitSegment: both parts must contain text');
  }
  let at = roundMs(seg.start + ((seg.end - seg.start) * charOffset) / text.length);
  let leftWords: Word[] = [];
  let rightWords: Word[] = [];
  if (seg.words?.length) {
    // Words go to the side their text is on; the split time is where the right side's first word starts.
    const ranges = wordRanges(text, seg.words);
    seg.words.forEach((w, i) => {
      const r = ranges[i];
      const mid = r ? (r[0] + r[1]) / 2 : -1;
      (r && mid >= charOffset ? rightWords : r ? leftWords : []).push(w);
    });
    if (rightWords.length > 0 && leftWords.length > 0) at = rightWords[0]!.start;
    else if (rightWords.length > 0) at = Math.min(at, rightWords[0]!.start);
    else if (leftWords.length > 0) at = Math.max(at, leftWords[leftWords.length - 1]!.end);
    leftWords = leftWords.filter((w) => w.end <= at);
    rightWords = rightWords.filter((w) => w.start >= at);
  }
  const part = (start: number, end: number, t: string, words: Word[]): Segment =>
    withSpeaker(words.length > 0 ? { start, end, text: t, words } : { start, end, text: t }, seg.speaker);
  const out = segments.slice();
  out.splice(index, 1, part(seg.start, at, left, leftWords), part(at, seg.end, right, rightWords));
  return out;
}

/**
 * Merge segment `index` with the one after it: texts joined by one space, the start of the first
 * and the later of the two ends (so an overlapping, shorter second segment never truncates the
 * merged one). Throws RangeError when `index` or `index + 1` is out of range.
 */
export function mergeSegments(segments: readonly Segment[], index: number): Segment[] {
  const first = checkIndex(segments, index, 'mergeSegments');
  const second = segments[index + 1];
  if (second === undefined) throw new RangeError(`mergeSegments: no segment after index ${index}`);
  const text = [first.text.trim(), second.text.trim()].filter((t) => t !== '').join(' ');
  const end = Math.max(first.end, second.end);
  // Two speakers' segments merged: the words remember who said them; the segment is the first's.
  const speaker = first.speaker ?? second.speaker;
  const tag = (ws: readonly Word[], who: string | undefined) =>
    who === speaker || who === undefined ? ws : ws.map((w) => (w.speaker ? w : withSpeaker(w, who)));
  const words = [...tag(first.words ?? [], first.speaker), ...tag(second.words ?? [], second.speaker)];
  const out = segments.slice();
  out.splice(
    index,
    2,
    withSpeaker(
      words.length > 0
        ? { start: first.start, end, text, words: normalizeWords(words, first.start, end) }
        : { start: first.start, end, text },
      speaker,
    ),
  );
  return out;
}

/**
 * Move segments `fromIndex`… by `deltaSec` (negative = earlier). Shifted times are clamped to ≥ 0
 * and, when `durationSec` is a finite number ≥ 0, to ≤ durationSec, then rounded to milliseconds;
 * clamping may leave zero-length segments at the bounds (run normalizeSegments to fix them).
 * The order is not changed, so indices stay valid for the caller.
 * Throws RangeError for a non-finite delta or a fromIndex that is not an integer in [0, length].
 */
export function shiftSegments(
  segments: readonly Segment[],
  deltaSec: number,
  fromIndex = 0,
  durationSec?: number,
): Segment[] {
  if (!Number.isFinite(deltaSec)) throw new RangeError('shiftSegments: delta must be a finite number');
  if (!Number.isInteger(fromIndex) || fromIndex < 0 || fromIndex > segments.length) {
    throw new RangeError(`shiftSegments: fromIndex ${fromIndex} is out of range`);
  }
  const max = validDuration(durationSec);
  const move = (t: number) => clamp(roundMs(t + deltaSec), max);
  return segments.map((seg, i) => {
    if (i < fromIndex) return seg;
    const moved: Segment = { start: move(seg.start), end: move(seg.end), text: seg.text };
    if (seg.words?.length) {
      moved.words = seg.words.map((w) =>
        withSpeaker({ start: move(w.start), end: move(w.end), text: w.text }, w.speaker),
      );
    }
    return withSpeaker(moved, seg.speaker);
  });
}

/**
 * Where each word's text sits in the segment's text: [from, to) UTF-16 offsets, found in order
 * (exact match first, then ignoring case); null for a word the text no longer contains.
 */
export function wordRanges(text: string, words: readonly Word[]): ([number, number] | null)[] {
  const lower = text.toLowerCase();
  let cursor = 0;
  return words.map((w) => {
    let at = text.indexOf(w.text, cursor);
    if (at < 0) at = lower.indexOf(w.text.toLowerCase(), cursor);
    if (at < 0 || w.text === '') return null;
    cursor = at + w.text.length;
    return [at, cursor];
  });
}

/** The texts, one per line (what full-text search indexes). */
export function segmentsToPlainText(segments: readonly Segment[]): string {
  return segments.map((s) => s.text).join('\n');
}

/** Most words one segment may carry, and the longest word text. */
export const MAX_SEGMENT_WORDS = 2000;
const MAX_WORD_TEXT = 200;

function checkWords(value: unknown, at: string): string | null {
  if (!Array.isArray(value)) return `${at} must be an array`;
  if (value.length > MAX_SEGMENT_WORDS) return `${at} must contain at most ${MAX_SEGMENT_WORDS} items`;
  for (let i = 0; i < value.length; i++) {
    const w: unknown = value[i];
    if (typeof w !== 'object' || w === null || Array.isArray(w)) return `${at}[${i}] must be an object`;
    const { start, end, text } = w as Record<string, unknown>;
    if (!isFiniteNonNegative(start) || !isFiniteNonNegative(end) || end < start)
      return `${at}[${i}] must have finite times with 0 ≤ start ≤ end`;
    if (typeof text !== 'string' || text.length > MAX_WORD_TEXT)
      return `${at}[${i}].text must be a string of at most ${MAX_WORD_TEXT} characters`;
  }
  return null;
}

export type SegmentsInputResult = { ok: true; segments: Segment[] } | { ok: false; error: string };

const isFiniteNonNegative = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * Check an untrusted update-API body: an array of at most MAX_SEGMENTS plain objects with
 * finite numbers 0 ≤ start ≤ end and a string text of at most MAX_SEGMENT_TEXT characters.
 * Extra properties are ignored (and not returned). On success the segments come back normalised
 * (see normalizeSegments, which may drop blank texts and clamp to `durationSec`).
 * The error is an English sentence naming the first offending element, e.g.
 * 'segments[3].end must not be before start'.
 */
export function validateSegmentsInput(value: unknown, durationSec?: number): SegmentsInputResult {
  if (!Array.isArray(value)) return { ok: false, error: 'segments must be an array' };
  if (value.length > MAX_SEGMENTS) {
    return { ok: false, error: `segments must contain at most ${MAX_SEGMENTS} items` };
  }
  const checked: Segment[] = [];
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    const at = `segments[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return { ok: false, error: `${at} must be an object` };
    }
    const { start, end, text, words, speaker } = item as Record<string, unknown>;
    if (!isFiniteNonNegative(start)) return { ok: false, error: `${at}.start must be a finite number ≥ 0` };
    if (!isFiniteNonNegative(end)) return { ok: false, error: `${at}.end must be a finite number ≥ 0` };
    if (end < start) return { ok: false, error: `${at}.end must not be before start` };
    if (typeof text !== 'string') return { ok: false, error: `${at}.text must be a string` };
    if (text.length > MAX_SEGMENT_TEXT) {
      return { ok: false, error: `${at}.text must be at most ${MAX_SEGMENT_TEXT} characters` };
    }
    if (words !== undefined) {
      const error = checkWords(words, `${at}.words`);
      if (error) return { ok: false, error };
    }
    if (speaker !== undefined && speaker !== null && speakerOf(speaker) === undefined) {
      return { ok: false, error: `${at}.speaker must be a speaker id` };
    }
    const seg: Segment = Array.isArray(words)
      ? { start, end, text, words: words as Word[] }
      : { start, end, text };
    checked.push(typeof speaker === 'string' ? { ...seg, speaker } : seg);
  }
  return { ok: true, segments: normalizeSegments(checked, durationSec) };
}
