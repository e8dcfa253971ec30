// Transcript segments: timed pieces of text, in seconds from the start of the media. Pure and
// dependency-free so the editor (browser) and the update API (server) apply the same rules.
//
// Every function here returns new arrays and new segment objects where it changes something; the
// input is never mutated.

export interface Segment {
  /** Seconds from the start of the media. */
  start: number;
  end: number;
  text: string;
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

const roundMs = (seconds: number): number => Math.round(seconds * 1000) / 1000;

/** Trim, and turn every whitespace run (line breaks, tabs, no-break spaces, …) into one space. */
const cleanText = (text: string): string => text.replace(/\s+/g, ' ').trim();

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
 * - sorted by start, stable (equal starts keep their input order). Overlaps are left alone.
 * Only `start`, `end` and `text` are copied; other properties are dropped. Idempotent.
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
    out.push({ start, end, text });
  }
  // Array#sort is stable (ES2019).
  return out.sort((a, b) => a.start - b.start);
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
  const at = roundMs(seg.start + ((seg.end - seg.start) * charOffset) / text.length);
  const out = segments.slice();
  out.splice(index, 1, { start: seg.start, end: at, text: left }, { start: at, end: seg.end, text: right });
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
  const out = segments.slice();
  out.splice(index, 2, { start: first.start, end: Math.max(first.end, second.end), text });
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
  return segments.map((seg, i) =>
    i < fromIndex
      ? seg
      : {
          start: clamp(roundMs(seg.start + deltaSec), max),
          end: clamp(roundMs(seg.end + deltaSec), max),
          text: seg.text,
        },
  );
}

/** The texts, one per line (what full-text search indexes). */
export function segmentsToPlainText(segments: readonly Segment[]): string {
  return segments.map((s) => s.text).join('\n');
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
    const { start, end, text } = item as Record<string, unknown>;
    if (!isFiniteNonNegative(start)) return { ok: false, error: `${at}.start must be a finite number ≥ 0` };
    if (!isFiniteNonNegative(end)) return { ok: false, error: `${at}.end must be a finite number ≥ 0` };
    if (end < start) return { ok: false, error: `${at}.end must not be before start` };
    if (typeof text !== 'string') return { ok: false, error: `${at}.text must be a string` };
    if (text.length > MAX_SEGMENT_TEXT) {
      return { ok: false, error: `${at}.text must be at most ${MAX_SEGMENT_TEXT} characters` };
    }
    checked.push({ start, end, text });
  }
  return { ok: true, segments: normalizeSegments(checked, durationSec) };
}
