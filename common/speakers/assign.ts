// Who said what, changed: a segment cut where its words change speaker, segments given to a
// speaker, two speakers merged. Pure; input is never mutated.

import { wordRanges, type Segment, type Word } from '../segments';
import { dropSpeaker, type Speaker } from './speaker-list';

/**
 * A segment cut where its words change speaker (a word without one is the segment's), so that
 * every piece has one speaker: the pieces' texts are cut at the first word of each new speaker,
 * their times at that word's start. A segment with one speaker (or whose words cannot be found in
 * its text) comes back whole.
 */
export function speakerRuns(seg: Segment): Segment[] {
  const words = seg.words;
  if (!words?.length || words.every((w) => (w.speaker ?? seg.speaker) === seg.speaker)) return [seg];
  const ranges = wordRanges(seg.text, words);
  const groups: { speaker: string | undefined; words: Word[]; from: number }[] = [];
  words.forEach((w, i) => {
    const who = w.speaker ?? seg.speaker;
    const last = groups.at(-1);
    if (last && last.speaker === who) last.words.push(w);
    else groups.push({ speaker: who, words: [w], from: ranges[i]?.[0] ?? -1 });
  });
  if (groups.slice(1).some((g) => g.from < 0)) return [seg];
  const out: Segment[] = [];
  groups.forEach((g, k) => {
    const next = groups[k + 1];
    const text = seg.text.slice(k === 0 ? 0 : g.from, next ? next.from : seg.text.length).trim();
    if (text === '') return;
    const start = k === 0 ? seg.start : g.words[0]!.start;
    const end = next ? next.words[0]!.start : seg.end;
    const piece: Segment = { start, end: Math.max(start, end), text, words: g.words.map(dropSpeaker) };
    out.push(g.speaker ? { ...piece, speaker: g.speaker } : piece);
  });
  return out.length > 0 ? out : [seg];
}

/** Segments at `indices` (and their words) said by `speaker` (null: by nobody named). */
export function assignSpeaker(
  segments: readonly Segment[],
  indices: readonly number[],
  speaker: string | null,
): Segment[] {
  const chosen = new Set(indices);
  for (const i of chosen) {
    if (!Number.isInteger(i) || i < 0 || i >= segments.length) {
      throw new RangeError(`assignSpeaker: no segment at index ${i}`);
    }
  }
  return segments.map((seg, i) => {
    if (!chosen.has(i)) return seg;
    const out = dropSpeaker(seg);
    if (out.words?.some((w) => w.speaker)) out.words = out.words.map(dropSpeaker);
    return speaker === null ? out : { ...out, speaker };
  });
}

/** Everything `from` said becomes `into`'s, and `from` leaves the list. */
export function mergeSpeakers(
  segments: readonly Segment[],
  speakers: readonly Speaker[],
  from: string,
  into: string,
): { segments: Segment[]; speakers: Speaker[] } {
  if (from === into) throw new RangeError('mergeSpeakers: a speaker cannot be merged into itself');
  if (!speakers.some((s) => s.id === from) || !speakers.some((s) => s.id === into)) {
    throw new RangeError('mergeSpeakers: no such speaker');
  }
  const move = <T extends Segment | Word>(x: T): T => (x.speaker === from ? { ...x, speaker: into } : x);
  return {
    segments: segments.map((seg) => {
      const out = move(seg);
      return out.words?.some((w) => w.speaker === from) ? { ...out, words: out.words.map(move) } : out;
    }),
    speakers: speakers.filter((s) => s.id !== from),
  };
}
