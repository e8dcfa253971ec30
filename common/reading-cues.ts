// Subtitle cues of a translated track, timed for reading in the target language: a translation
// keeps the original's segment timings, but its text may be longer or shorter and its readers
// slower or faster (Japanese is read at 4 characters a second, Spanish at 17; see
// ./reading-speed). Segments too fast to read (or on screen too briefly) are joined with the next
// one of the same speaker when the two fit in one cue; then the cues are cut to the script's line
// length and kept up long enough to be read where the next cue leaves room.
import { subtitleCues, wrapLines, CUE_DEFAULTS, type Cue } from './cues';
import { MAX_CUE_SEC, MIN_CUE_SEC, readingLimits } from './reading-speed';
import type { Segment } from './segments';
import { isUnspacedText } from './words';

/** Two segments further apart than this are never joined (a pause is a change of thought). */
const MAX_JOIN_GAP_SEC = 1;

const chars = (s: string) => [...s].length;

export function readingCues(
  segments: readonly Segment[],
  opts: { language: string | null; prefixOf?: (seg: Segment) => string },
): Cue[] {
  const limits = readingLimits(opts.language);
  const maxLines = CUE_DEFAULTS.maxLines;
  const texts = segments
    .map((s) => ({ ...s, text: s.text.replace(/\s+/g, ' ').trim() }))
    .filter((s) => s.text !== '');
  // The time a segment can stay up: until the next one starts, at most MAX_CUE_SEC.
  const room = (list: Segment[], i: number) =>
    Math.min(list[i + 1]?.start ?? Infinity, list[i]!.start + MAX_CUE_SEC) - list[i]!.start;
  const tooFast = (list: Segment[], i: number) => {
    const s = list[i]!;
    const available = room(list, i);
    return chars(s.text) / Math.max(available, 1e-3) > limits.cps || available < MIN_CUE_SEC;
  };

  // Characters a second of `s` shown until `next` starts.
  const speed = (s: Segment, next: Segment) =>
    chars(s.text) / Math.max(Math.min(next.start, s.start + MAX_CUE_SEC) - s.start, 1e-3);
  const canJoin = (a: Segment, b: Segment) => {
    if (a.speaker !== b.speaker || b.start - a.end > MAX_JOIN_GAP_SEC || b.end - a.start > MAX_CUE_SEC)
      return null;
    const unspaced = isUnspacedText(a.text + b.text);
    const text = unspaced ? a.text + b.text : `${a.text} ${b.text}`;
    const prefix = opts.prefixOf?.(a) ?? '';
    return wrapLines(prefix + text, limits.lineChars, maxLines, unspaced) ? { ...a, end: b.end, text } : null;
  };

  const joined: Segment[] = [];
  for (const seg of texts) {
    const { words: _words, ...rest } = seg;
    joined.push(rest);
    // The one before the newest now knows its room: joined with it while it cannot be read in
    // time, else with the one before it when that reads slower than it alone.
    while (joined.length >= 2 && tooFast(joined, joined.length - 2)) {
      const merged = canJoin(joined.at(-2)!, joined.at(-1)!);
      if (merged) {
        joined.splice(-2, 2, merged);
        continue;
      }
      const back = joined.length >= 3 ? canJoin(joined.at(-3)!, joined.at(-2)!) : null;
      if (!back) break;
      const next = joined.at(-1)!;
      if (speed(back, next) >= speed(joined.at(-2)!, next)) break;
      joined.splice(-3, 2, back);
    }
  }
  // The last one has the room up to MAX_CUE_SEC; if that is not enough, it joins the one before.
  while (joined.length >= 2 && tooFast(joined, joined.length - 1)) {
    const merged = canJoin(joined.at(-2)!, joined.at(-1)!);
    if (!merged) break;
    joined.splice(-2, 2, merged);
  }
  return subtitleCues(joined, {
    language: opts.language,
    prefixOf: opts.prefixOf,
    maxLineChars: limits.lineChars,
    maxLines,
    maxSec: MAX_CUE_SEC,
    maxCps: limits.cps,
  });
}
