// The one place segments are made well-formed as an engine produces them, whichever engine it is:
// text cleaned (common/segments.ts's rules), times rounded to milliseconds, inside the audio, each
// segment starting where the previous one ended at the earliest, words inside their segment.
// Engines push what their model gave (mapped to the media's timeline); the job and the page only
// ever see what comes out of here.
import { normalizeSegments, roundMs, type Segment } from '../../../common/segments';

/** A segment shorter than this (after clamping) carries no time to show: dropped. */
const MIN_KEPT_SEC = 0.01;

export interface SegmentStream {
  /** Cleans `segment` and passes it on; null when nothing of it is left (empty, or no time). */
  push(segment: Segment): Segment | null;
  /** Every segment passed on so far, in order. */
  readonly segments: Segment[];
}

/**
 * `limitSec`: the end of the audio (no time passes it); `onSegment` hears each kept segment. A
 * speaker label an engine gives (a diarizing server's 'A') is kept as given: the job names it.
 */
export function createSegmentStream(limitSec: number, onSegment?: (segment: Segment) => void): SegmentStream {
  const segments: Segment[] = [];
  let lastEnd = 0;
  return {
    segments,
    push(raw) {
      if (!Number.isFinite(raw.start) || !Number.isFinite(raw.end)) return null;
      const start = Math.max(lastEnd, roundMs(raw.start));
      const end = Math.min(limitSec, roundMs(raw.end));
      if (end - start < MIN_KEPT_SEC) return null;
      const { speaker, ...rest } = raw;
      const [clean] = normalizeSegments([{ ...rest, start, end }], limitSec);
      if (!clean) return null;
      const segment = speaker ? { ...clean, speaker } : clean;
      segments.push(segment);
      lastEnd = segment.end;
      onSegment?.(segment);
      return segment;
    },
  };
}
