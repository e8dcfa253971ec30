import { normalizeWords, type Segment } from './segments';

// A segment's own start and end, set by hand in the editor (nudged by tenths, typed as m:ss.s or
// dragged on the segment's timeline). The same rules in the browser (before sending) and on the server (edit-segments.ts):
// start before end, no overlap with the neighbours, inside the recording; the words follow.

/** One nudge of the editor's −/+ buttons and arrow keys. */
export const NUDGE_SEC = 0.1;

export type SegmentTimeProblem = 'order' | 'overlap' | 'outside';

export class SegmentTimeError extends Error {
  constructor(
    readonly problem: SegmentTimeProblem,
    /** For the message: the limit that was crossed, as m:ss.s. */
    readonly limit: string | null = null,
  ) {
    super(`segment time: ${problem}${limit ? ` (${limit})` : ''}`);
    this.name = 'SegmentTimeError';
  }
}

const toMs = (s: number) => Math.round(s * 1000) / 1000;

/**
 * Seconds as m:ss.s (h:mm:ss.s from an hour on): what the time fields show. Hundredths are shown
 * when there are any (a drag with Shift sets them), so the field never hides what was saved.
 */
export function formatClock(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const digits = cs % 10 === 0 ? 1 : 2;
  const t = cs / 100;
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const s = (t % 60).toFixed(digits).padStart(digits + 3, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** m:ss.s, h:mm:ss.s or plain seconds ("75.5") as seconds; null when it is none of them. */
export function parseClock(text: string): number | null {
  const m = /^\s*(?:(\d+):)?(?:(\d+):)?(\d+(?:[.,]\d+)?)\s*$/.exec(text);
  if (!m) return null;
  const parts = [m[1], m[2]].filter((p): p is string => p !== undefined).map(Number);
  const sec = Number(m[3]!.replace(',', '.'));
  if (parts.length > 0 && sec >= 60) return null;
  if (parts.length === 2 && parts[1]! >= 60) return null;
  const value = parts.reduce((acc, p) => acc * 60 + p, 0) * 60 + sec;
  return parts.length === 0 ? sec : value;
}

/**
 * Segment `index` from `start` to `end` (seconds, kept to the millisecond). Throws
 * SegmentTimeError when start is not before end, when it would overlap the segment before or
 * after, or reach past the recording (`durationSec`, when known); RangeError for no such segment.
 * Its words are clamped into the new span.
 */
export function retimeSegment(
  segments: readonly Segment[],
  index: number,
  start: number,
  end: number,
  durationSec?: number,
): Segment[] {
  const seg = Number.isInteger(index) ? segments[index] : undefined;
  if (!seg) throw new RangeError(`time: no segment at index ${index}`);
  const s = toMs(start);
  const e = toMs(end);
  if (!Number.isFinite(s) || !Number.isFinite(e) || s < 0 || e <= s) throw new SegmentTimeError('order');
  const before = segments[index - 1];
  const after = segments[index + 1];
  if (before && s < before.end) throw new SegmentTimeError('overlap', formatClock(before.end));
  if (after && e > after.start) throw new SegmentTimeError('overlap', formatClock(after.start));
  if (
    durationSec !== undefined &&
    Number.isFinite(durationSec) &&
    durationSec > 0 &&
    e > durationSec + 0.0005
  )
    throw new SegmentTimeError('outside', formatClock(durationSec));
  const words = seg.words ? normalizeWords(seg.words, s, e) : [];
  const { words: _old, ...rest } = seg;
  const moved: Segment =
    words.length > 0 ? { ...rest, start: s, end: e, words } : { ...rest, start: s, end: e };
  return segments.map((x, i) => (i === index ? moved : x));
}

/** The finer step of a drag or an arrow key with Shift held (the plain one is NUDGE_SEC). */
export const FINE_STEP_SEC = 0.01;
/** A drag stops this short of the segment's other edge (or at its length, if shorter already). */
const MIN_SPAN_SEC = 0.1;

/** How far segment `index`'s start and end may go: the neighbours, 0 and the recording's end. */
export interface SegmentBounds {
  /** The earliest start: the previous segment's end, else 0. */
  min: number;
  /** The latest end: the next segment's start or the recording's end, whichever is first. */
  max: number;
}

export function segmentBounds(
  segments: readonly Segment[],
  index: number,
  durationSec?: number | null,
): SegmentBounds {
  const before = segments[index - 1];
  const after = segments[index + 1];
  const duration = durationSec && Number.isFinite(durationSec) && durationSec > 0 ? durationSec : Infinity;
  return { min: before ? before.end : 0, max: Math.min(after ? after.start : Infinity, duration) };
}

/**
 * Where a dragged edge lands: `seconds` snapped to `step`, then kept between the neighbour and the
 * segment's other edge. A drag past the neighbour stops exactly at it, whatever the step.
 */
export function dragEdge(
  which: 'start' | 'end',
  seconds: number,
  seg: { start: number; end: number },
  bounds: SegmentBounds,
  step: number = NUDGE_SEC,
): number {
  const span = Math.min(MIN_SPAN_SEC, Math.max(0, seg.end - seg.start));
  const snapped = Math.round(seconds / step) * step;
  const [lo, hi] = which === 'start' ? [bounds.min, seg.end - span] : [seg.start + span, bounds.max];
  return toMs(Math.min(Math.max(snapped, lo), Math.max(lo, hi)));
}

/**
 * The stretch of time the segment's timeline shows: the segment with room on both sides to drag
 * into — up to the neighbour (a little of it shown) when it is near, a few seconds when it is far.
 */
export function timelineWindow(
  seg: { start: number; end: number },
  bounds: SegmentBounds,
): { from: number; to: number } {
  const pad = Math.min(5, Math.max(1, (seg.end - seg.start) / 2));
  const room = (gap: number) => Math.max(pad, Math.min(gap + pad / 2, 3));
  const from = Math.max(0, seg.start - room(seg.start - bounds.min));
  return { from, to: seg.end + room(bounds.max - seg.end) };
}
