// Speakers: who said what. A transcript holds a list of speakers; each segment (and each word,
// where words exist) may name one by id. Pure and dependency-free: the editor (browser), the
// update API, the exports, caption import and the engines all apply the same rules.
//
// Every function returns new arrays and objects where it changes something; input is never mutated.

import { LOCALES, type Locale } from './locales';
import { SPEAKER_ID_RE, wordRanges, type Segment, type Word } from './segments';

export interface Speaker {
  /** Stable within the transcript ('s1', 's2', …): segments and words refer to it. */
  id: string;
  /** What exports and the page show; a translated default ('Speaker 1') until renamed. */
  name: string;
  /** '#rrggbb', for the speaker's chip. */
  color: string;
}

/** Most speakers one transcript may have. */
export const MAX_SPEAKERS = 50;
/** Longest speaker name, in UTF-16 code units. */
export const MAX_SPEAKER_NAME = 80;
export const SPEAKER_COLOR_RE = /^#[0-9a-f]{6}$/i;
export { SPEAKER_ID_RE };

/** Chip colours, in the order speakers get them: distinct, and readable as text on white. */
export const SPEAKER_COLORS = [
  '#2563eb',
  '#dc2626',
  '#15803d',
  '#9333ea',
  '#c2410c',
  '#0e7490',
  '#be185d',
  '#4d7c0f',
  '#4f46e5',
  '#a16207',
] as const;

// Kept here rather than in the locale files: the server names speakers too (diarization, import),
// in the language of the account that owns the transcript.
const DEFAULT_NAMES: Record<Locale, string> = {
  en: 'Speaker {n}',
  de: 'Sprecher {n}',
  es: 'Hablante {n}',
  fr: 'Intervenant {n}',
  ja: '話者{n}',
  ko: '화자 {n}',
  pt: 'Orador {n}',
  tw: '說話者 {n}',
  vi: 'Người nói {n}',
  zh: '说话人 {n}',
};

const isLocale = (v: string): v is Locale => (LOCALES as readonly string[]).includes(v);

/** 'Speaker 3' in `locale` (English for an unknown locale). */
export function defaultSpeakerName(locale: string, n: number): string {
  return DEFAULT_NAMES[isLocale(locale) ? locale : 'en'].replace('{n}', String(n));
}

/** One line, trimmed, at most MAX_SPEAKER_NAME code units (never splitting a surrogate pair). */
export function cleanSpeakerName(name: string): string {
  let out = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (out.length > MAX_SPEAKER_NAME) {
    out = out.slice(0, MAX_SPEAKER_NAME);
    if (/[\uD800-\uDBFF]$/.test(out)) out = out.slice(0, -1);
    out = out.trim();
  }
  return out;
}

/** The colour the n-th speaker (0-based) gets. */
export const speakerColor = (index: number): string => SPEAKER_COLORS[index % SPEAKER_COLORS.length]!;

/** A new speaker for the list: the next free id, the next default name and colour (or `name`). */
export function newSpeaker(speakers: readonly Speaker[], locale: string, name?: string): Speaker {
  let max = 0;
  for (const s of speakers) {
    const m = /^s(\d{1,6})$/.exec(s.id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  const used = new Set(speakers.map((s) => s.name));
  let n = speakers.length + 1;
  while (used.has(defaultSpeakerName(locale, n))) n++;
  const clean = name === undefined ? '' : cleanSpeakerName(name);
  return {
    id: `s${max + 1}`,
    name: clean || defaultSpeakerName(locale, n),
    color: speakerColor(speakers.length),
  };
}

/**
 * A speaker list made safe to store: entries with a malformed or repeated id dropped, names
 * cleaned (a blank name becomes the default one), colours checked (else the palette's), at most
 * MAX_SPEAKERS. Idempotent.
 */
export function normalizeSpeakers(speakers: readonly unknown[], locale = 'en'): Speaker[] {
  const out: Speaker[] = [];
  const seen = new Set<string>();
  for (const item of speakers) {
    if (out.length >= MAX_SPEAKERS) break;
    if (typeof item !== 'object' || item === null) continue;
    const { id, name, color } = item as Record<string, unknown>;
    if (typeof id !== 'string' || !SPEAKER_ID_RE.test(id) || seen.has(id)) continue;
    seen.add(id);
    const clean = typeof name === 'string' ? cleanSpeakerName(name) : '';
    out.push({
      id,
      name: clean || defaultSpeakerName(locale, out.length + 1),
      color:
        typeof color === 'string' && SPEAKER_COLOR_RE.test(color)
          ? color.toLowerCase()
          : speakerColor(out.length),
    });
  }
  return out;
}

const dropSpeaker = <T extends Segment | Word>(x: T): T => {
  const { speaker: _speaker, ...rest } = x;
  return rest as T;
};

/** Segments whose speaker references (segment and words) all name one of `speakers`. */
export function withKnownSpeakers(segments: readonly Segment[], speakers: readonly Speaker[]): Segment[] {
  const ids = new Set(speakers.map((s) => s.id));
  const known = <T extends Segment | Word>(x: T): T =>
    x.speaker && !ids.has(x.speaker) ? dropSpeaker(x) : x;
  return segments.map((seg) => {
    const out = known(seg);
    return out.words?.some((w) => w.speaker && !ids.has(w.speaker))
      ? { ...out, words: out.words.map(known) }
      : out;
  });
}

/** id → name. */
export const speakerNames = (speakers: readonly Speaker[]): Map<string, string> =>
  new Map(speakers.map((s) => [s.id, s.name]));

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
