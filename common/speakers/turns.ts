// A diarizer's turns (who spoke when) put on a transcript's segments and words.

import type { Segment } from '../segments';
import { speakerRuns } from './assign';
import { dropSpeaker } from './speaker-list';

/** A stretch of audio one speaker holds, as a diarizer reports it (seconds; speaker = cluster). */
export interface SpeakerTurn {
  start: number;
  end: number;
  speaker: number;
}

/** Turns farther than this from a segment that overlaps none are not given to it. */
const NEAREST_TURN_SEC = 1;

/** The speaker who holds most of [start, end]; the nearest one when none overlaps it. */
function speakerAt(turns: readonly SpeakerTurn[], start: number, end: number): number | undefined {
  const held = new Map<number, number>();
  let nearest: number | undefined;
  let gap = NEAREST_TURN_SEC;
  for (const t of turns) {
    const overlap = Math.min(end, t.end) - Math.max(start, t.start);
    if (overlap > 0) held.set(t.speaker, (held.get(t.speaker) ?? 0) + overlap);
    else {
      const d = Math.max(t.start - end, start - t.end, 0);
      if (d <= gap) {
        gap = d;
        nearest = t.speaker;
      }
    }
  }
  let best: number | undefined;
  let most = 0;
  for (const [speaker, sec] of held) {
    if (sec > most || (sec === most && best !== undefined && speaker < best)) {
      best = speaker;
      most = sec;
    }
  }
  return best ?? nearest;
}

/**
 * Diarizer turns put on transcript segments: each word goes to the speaker who overlaps it most
 * (a segment without words, as a whole), a segment is then cut where its words change speaker
 * (speakerRuns), and `speaker` holds the cluster label ('1', '2', … in cluster order) for
 * speakersFromLabels to name.
 */
export function assignByOverlap(segments: readonly Segment[], turns: readonly SpeakerTurn[]): Segment[] {
  const sorted = [...turns].filter((t) => t.end > t.start).sort((a, b) => a.start - b.start);
  const label = (n: number | undefined) => (n === undefined ? undefined : String(n + 1));
  const out: Segment[] = [];
  for (const seg of segments) {
    const base = dropSpeaker(seg);
    if (!seg.words?.length) {
      const who = label(speakerAt(sorted, seg.start, seg.end));
      out.push(who ? { ...base, speaker: who } : base);
      continue;
    }
    const words = seg.words.map((w) => {
      const who = label(speakerAt(sorted, w.start, Math.max(w.end, w.start + 0.01)));
      const clean = dropSpeaker(w);
      return who ? { ...clean, speaker: who } : clean;
    });
    // The segment's speaker: whoever said most of its words' time.
    const time = new Map<string, number>();
    for (const w of words)
      if (w.speaker) time.set(w.speaker, (time.get(w.speaker) ?? 0) + (w.end - w.start) + 0.001);
    const main = [...time].sort((a, b) => b[1] - a[1])[0]?.[0];
    const tagged: Segment = main ? { ...base, words, speaker: main } : { ...base, words };
    // Words of the segment's own speaker need no label of their own.
    const runs = speakerRuns({
      ...tagged,
      words: words.map((w) => (w.speaker === main ? dropSpeaker(w) : w)),
    });
    out.push(...runs);
  }
  return out;
}
