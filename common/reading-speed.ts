// How fast subtitles of each script can be read, for the cues of translated tracks
// (modules/translation exports): characters per line and characters per second (spaces and
// punctuation counted), per script of the target language.
//
// Sources (Netflix Timed Text Style Guides, partnerhelp.netflixstudios.com, "Character
// Limitation" and "Reading Speed" of each language's guide, adult programmes):
// - English template and most Latin-script languages (Spanish, French, German, Italian,
//   Portuguese, Dutch…): 42 characters per line, 17 characters per second (the English
//   template's 200 words a minute). BBC Subtitle Guidelines agree (160–180 words a minute).
// - Cyrillic (Russian, Ukrainian, Bulgarian…), Greek, Arabic, Hebrew, Devanagari (Hindi):
//   42 characters per line, 17 characters per second in their guides.
// - Thai: 35 characters per line, 15 characters per second.
// - Korean: 16 characters per line, 12 characters per second.
// - Chinese (Simplified and Traditional): 16 characters per line, 9 characters per second.
// - Japanese: 13 characters per line and 4 characters per second in Netflix's guide; lines stay
//   at the 16 characters ClipScribe uses for every CJK language (common/cues.ts), the reading
//   speed is Netflix's.
// Minimum time on screen: 5/6 s; maximum 7 s (Netflix general requirements, BBC).

export type Script =
  | 'latin'
  | 'cyrillic'
  | 'greek'
  | 'arabic'
  | 'hebrew'
  | 'devanagari'
  | 'thai'
  | 'korean'
  | 'chinese'
  | 'japanese';

export interface ReadingLimits {
  lineChars: number;
  cps: number;
}

export const READING_LIMITS: Record<Script, ReadingLimits> = {
  latin: { lineChars: 42, cps: 17 },
  cyrillic: { lineChars: 42, cps: 17 },
  greek: { lineChars: 42, cps: 17 },
  arabic: { lineChars: 42, cps: 17 },
  hebrew: { lineChars: 42, cps: 17 },
  devanagari: { lineChars: 42, cps: 17 },
  thai: { lineChars: 35, cps: 15 },
  korean: { lineChars: 16, cps: 12 },
  chinese: { lineChars: 16, cps: 9 },
  japanese: { lineChars: 16, cps: 4 },
};

export const MIN_CUE_SEC = 5 / 6;
export const MAX_CUE_SEC = 7;

// Languages written in another script than Latin (the first part of the code).
const SCRIPT_OF: Record<string, Script> = {
  ja: 'japanese',
  zh: 'chinese',
  yue: 'chinese',
  ko: 'korean',
  th: 'thai',
  el: 'greek',
  he: 'hebrew',
  yi: 'hebrew',
  ...Object.fromEntries(['ar', 'fa', 'ur', 'ps', 'sd', 'ug', 'ckb'].map((c) => [c, 'arabic' as const])),
  ...Object.fromEntries(['hi', 'mr', 'ne', 'sa'].map((c) => [c, 'devanagari' as const])),
  ...Object.fromEntries(
    ['ru', 'uk', 'be', 'bg', 'sr', 'mk', 'kk', 'ky', 'mn', 'tg', 'tt', 'ba'].map((c) => [
      c,
      'cyrillic' as const,
    ]),
  ),
};

/** The script a language is written in (Latin when not listed). */
export function scriptOf(language: string | null | undefined): Script {
  const base = (language ?? '').toLowerCase().split('-')[0]!;
  return SCRIPT_OF[base] ?? 'latin';
}

export function readingLimits(language: string | null | undefined): ReadingLimits {
  return READING_LIMITS[scriptOf(language)];
}
