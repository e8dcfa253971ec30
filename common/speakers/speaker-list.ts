// Speakers: who said what. A transcript holds a list of speakers; each segment (and each word,
// where words exist) may name one by id. This file: the list itself (ids, names, colours). Pure and
// dependency-free: the editor (browser), the update API, the exports, caption import and the
// engines all apply the same rules; input is never mutated.

import { LOCALES, type Locale } from '../locales';
import { SPEAKER_ID_RE, type Segment, type Word } from '../segments';

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

/** `x` without its speaker. */
export const dropSpeaker = <T extends Segment | Word>(x: T): T => {
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
