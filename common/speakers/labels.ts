// Labels from elsewhere (a caption's voice, an API's 'A'/'B', a diarizer's cluster number) turned
// into the transcript's speakers, named in the owner's language.

import type { Segment, Word } from '../segments';
import {
  cleanSpeakerName,
  defaultSpeakerName,
  dropSpeaker,
  MAX_SPEAKERS,
  speakerColor,
  type Speaker,
} from './speaker-list';

// Labels that only number a speaker ('A', 'SPEAKER_00', 'spk 1', '2'), maybe qualified by the
// part of the audio they were found in ('c2-A'): they get the default name.
const GENERIC_LABEL = /^(?:c\d{1,4}-)?(?:[A-Z]|\d{1,3}|(?:speaker|spk|spkr)[ _-]?\d{1,3})$/i;

export interface SpeakerLabeler {
  /** The segment (and its words) with labels replaced by speaker ids; new labels get a speaker. */
  label(seg: Segment): Segment;
  /** The speakers made so far, in order of first appearance. */
  speakers(): Speaker[];
}

/**
 * Turns labels from elsewhere (a caption's voice, an API's 'A'/'B', a diarizer's cluster number)
 * into speakers and ids as segments stream in. Generic labels get the translated default name
 * (unless `keepNames`: names as written, for caption files); real names are kept.
 */
export function createSpeakerLabeler(locale: string, opts: { keepNames?: boolean } = {}): SpeakerLabeler {
  const byLabel = new Map<string, Speaker>();
  const list: Speaker[] = [];
  const idOf = (label: string | undefined): string | undefined => {
    if (label === undefined) return undefined;
    const clean = cleanSpeakerName(label);
    if (clean === '') return undefined;
    const key = clean.toLowerCase();
    let s = byLabel.get(key);
    if (!s) {
      if (list.length >= MAX_SPEAKERS) return undefined;
      const n = list.length + 1;
      s = {
        id: `s${n}`,
        name: !opts.keepNames && GENERIC_LABEL.test(clean) ? defaultSpeakerName(locale, n) : clean,
        color: speakerColor(n - 1),
      };
      byLabel.set(key, s);
      list.push(s);
    }
    return s.id;
  };
  const relabel = <T extends Segment | Word>(x: T): T => {
    const out = dropSpeaker(x);
    const id = idOf(x.speaker);
    return id ? { ...out, speaker: id } : out;
  };
  return {
    label(seg) {
      const next = relabel(seg);
      return next.words ? { ...next, words: next.words.map(relabel) } : next;
    },
    speakers: () => [...list],
  };
}

/** speakersFromLabels for a whole list at once (see createSpeakerLabeler). */
export function speakersFromLabels(
  segments: readonly Segment[],
  locale: string,
  opts: { keepNames?: boolean } = {},
): { segments: Segment[]; speakers: Speaker[] } {
  const labeler = createSpeakerLabeler(locale, opts);
  const out = segments.map((seg) => labeler.label(seg));
  return { segments: out, speakers: labeler.speakers() };
}

/** Speakers some segment or word still names (a label's segments may all have been dropped). */
export function usedSpeakers(speakers: readonly Speaker[], segments: readonly Segment[]): Speaker[] {
  const used = new Set<string>();
  for (const seg of segments) {
    if (seg.speaker) used.add(seg.speaker);
    seg.words?.forEach((w) => w.speaker && used.add(w.speaker));
  }
  return speakers.filter((s) => used.has(s.id));
}
