// Caption files (SubRip .srt and WebVTT .vtt) to and from transcript segments. Pure and
// dependency-free: the import preview runs in the browser, the import itself on the server.
//
// The parser is deliberately lenient (real-world files are sloppy); the serializers write the
// strict form, and parseCaptions(formatSrt(x)) / parseCaptions(formatVtt(x)) give back x for any
// non-empty normalised x without word timings (normalised with a duration d: parse with the same
// d, or the zero-length cues at d come back MIN_SEGMENT_SEC long). WebVTT inline timestamps
// ('<00:00:01.500>') give the parsed segments word timings; the serializers write none.

import { normalizeSegments, roundMs, type Segment, type Word } from './segments';
import { speakersFromLabels, usedSpeakers, type Speaker } from './speakers';
import { stripControlChars } from './text';
import { tokenizeWords } from './words';

export type CaptionFormat = 'srt' | 'vtt';

export type CaptionParseErrorCode = 'empty' | 'invalid';

/**
 * Thrown by parseCaptions when the file yields no segment.
 * - 'empty': nothing to import — blank input, a WebVTT file without cues, or cues whose text is
 *   blank once tags are stripped;
 * - 'invalid': non-blank input in which no cue timing line could be found (not a caption file).
 */
export class CaptionParseError extends Error {
  readonly code: CaptionParseErrorCode;
  constructor(code: CaptionParseErrorCode, message: string) {
    super(message);
    this.name = 'CaptionParseError';
    this.code = code;
  }
}

const VTT_HEADER = /^\s*WEBVTT(?:[ \t\n]|$)/;

/**
 * 'vtt' when the content starts with the WEBVTT signature (after a BOM and blank lines), whatever
 * the file is called; otherwise 'vtt' only when the file name ends in .vtt, else 'srt'.
 */
export function detectCaptionFormat(text: string, filename?: string): CaptionFormat {
  if (VTT_HEADER.test(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'))) return 'vtt';
  return filename !== undefined && /\.vtt$/i.test(filename.trim()) ? 'vtt' : 'srt';
}

// [hours:]minutes:seconds[(.|,)fraction]. Hours may have any number of digits; minutes and
// seconds one or two (range-checked in parseTimestamp). A missing fraction means .000.
const TS = String.raw`(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,](\d+))?`;
// A timing line; anything after the end time separated by whitespace (WebVTT cue settings such as
// 'align:start position:10%', SubRip 'X1:… Y2:…' coordinates) is ignored.
const TIMING = new RegExp(String.raw`^\s*${TS}\s*-->\s*${TS}(?:\s.*)?$`);

/** Milliseconds, or undefined when minutes or seconds are out of range. */
function parseTimestamp(
  h: string | undefined,
  m: string | undefined,
  s: string | undefined,
  frac: string | undefined,
): number | undefined {
  const minutes = Number(m);
  const seconds = Number(s);
  if (minutes > 59 || seconds > 59) return undefined;
  // The fraction is decimal: ',5' is half a second. Beyond 3 digits it is rounded.
  const digits = frac ?? '';
  const ms =
    digits.length <= 3
      ? Number(digits.padEnd(3, '0'))
      : Math.round(Number(`${digits.slice(0, 3)}.${digits.slice(3)}`));
  return ((Number(h ?? 0) * 60 + minutes) * 60 + seconds) * 1000 + ms;
}

/** [start, end] in seconds when the line is a cue timing line. */
function parseTiming(line: string): [number, number] | undefined {
  const m = TIMING.exec(line);
  if (!m) return undefined;
  const start = parseTimestamp(m[1], m[2], m[3], m[4]);
  const end = parseTimestamp(m[5], m[6], m[7], m[8]);
  if (start === undefined || end === undefined) return undefined;
  return [start / 1000, end / 1000];
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  lrm: '\u200e',
  rlm: '\u200f',
};
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));/g;
// Markup: an HTML-ish tag opening with a letter, '/' or a digit (<i>, </b>, <c.loud>,
// <v Speaker>, <00:00:01.000>, <font color="red">), or an ASS override such as {\an8}.
// '<' followed by a space ('a < b') is kept.
const TAG = /<\/?[A-Za-z0-9][^<>]*>|\{\\[^{}]*\}/g;

function decodeEntities(text: string): string {
  // One pass, so '&amp;lt;' becomes '&lt;', not '<'.
  return text.replace(ENTITY, (whole, dec: string | undefined, hex: string | undefined, name?: string) => {
    if (name !== undefined) return NAMED_ENTITIES[name] ?? whole;
    const cp = dec !== undefined ? Number(dec) : parseInt(hex ?? '', 16);
    const valid = cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
    return valid ? String.fromCodePoint(cp) : whole;
  });
}

const cueText = (lines: readonly string[]): string => decodeEntities(lines.join(' ').replace(TAG, ''));

// A WebVTT inline timestamp ('<00:00:01.500>'): the text after it is spoken from that time on
// (karaoke-style cues, e.g. automatic captions exported from video sites).
const INLINE_TS = new RegExp(String.raw`<${TS}>`, 'g');

/**
 * Word timings from a cue's inline timestamps, or undefined when it has none. Each word starts in
 * the stretch (cue start or an inline timestamp, up to the next one or the cue end) where its first
 * character is, and the words of one stretch share it in proportion to their length.
 */
function inlineWords(body: readonly string[], start: number, end: number): Word[] | undefined {
  const joined = body.join(' ');
  const stretches: { at: number; from: number }[] = [];
  let text = '';
  let last = 0;
  let at = start;
  for (const m of joined.matchAll(INLINE_TS)) {
    const ms = parseTimestamp(m[1], m[2], m[3], m[4]);
    if (ms === undefined) continue;
    stretches.push({ at, from: text.length });
    text += cueText([joined.slice(last, m.index)]);
    at = Math.min(Math.max(ms / 1000, at), end);
    last = m.index + m[0].length;
  }
  if (stretches.length === 0) return undefined;
  stretches.push({ at, from: text.length });
  text += cueText([joined.slice(last)]);

  // Every token is a contiguous piece of the text, in order: find where each begins.
  const placed: { text: string; stretch: number }[] = [];
  let pos = 0;
  let k = 0;
  for (const token of tokenizeWords(text)) {
    const index = text.indexOf(token, pos);
    if (index < 0) return undefined;
    while (k + 1 < stretches.length && stretches[k + 1]!.from <= index) k++;
    placed.push({ text: token, stretch: k });
    pos = index + token.length;
  }
  const words: Word[] = [];
  for (let s = 0; s < stretches.length; s++) {
    const mine = placed.filter((p) => p.stretch === s);
    const from = stretches[s]!.at;
    const to = s + 1 < stretches.length ? stretches[s + 1]!.at : end;
    const total = mine.reduce((n, p) => n + p.text.length, 0);
    let t = from;
    for (const p of mine) {
      const share = total > 0 ? ((to - from) * p.text.length) / total : 0;
      words.push({ start: roundMs(t), end: roundMs(t + share), text: p.text });
      t += share;
    }
  }
  return words;
}

const isBlank = (line: string): boolean => line.trim() === '';
const VTT_SKIPPED_BLOCK = /^(?:NOTE(?:[ \t].*)?|STYLE|REGION)$/;

/**
 * Parse a SubRip or WebVTT file (see detectCaptionFormat; `filename` is only a hint for files
 * without a WEBVTT header). Handles a BOM, CRLF/CR line endings, missing or out-of-order SubRip
 * numbers, ',' or '.' before the milliseconds, WebVTT mm:ss.ttt timestamps, cue identifiers, cue
 * settings, NOTE/STYLE/REGION blocks, multi-line cues (lines joined with a space), markup (tags,
 * inline timestamps, {\an8}) and the common entities. Blocks without a valid timing line are
 * skipped; a cue whose text runs into the next cue without a blank line ends there (a trailing
 * line of digits, the next SubRip number, is dropped). Output is normalised (normalizeSegments,
 * clamped to `durationSec` when given), so it is sorted by start.
 * Throws CaptionParseError when no segment results.
 */
export function parseCaptions(raw: string, filename?: string, durationSec?: number): Segment[] {
  return finish(parseCues(raw, filename), durationSec);
}

/** A cue as read, with who says it when the file tells (a WebVTT voice, a SubRip 'Name:'). */
type RawCue = Segment & { voice?: string };

interface Parsed {
  cues: RawCue[];
  format: CaptionFormat;
  timingLines: number;
  hasHeader: boolean;
  blank: boolean;
}

function finish(parsed: Parsed, durationSec: number | undefined): Segment[] {
  const segments = normalizeSegments(parsed.cues, durationSec);
  if (segments.length > 0) return segments;
  if (parsed.timingLines > 0 || parsed.hasHeader || parsed.blank) {
    throw new CaptionParseError('empty', 'The caption file contains no captions');
  }
  throw new CaptionParseError('invalid', 'Not a SubRip or WebVTT caption file');
}

// The first voice span of a WebVTT cue: <v Alice>, <v.loud Bob Smith>.
const VOICE = /<v(?:\.[^\s>]*)?[ \t]+([^>]*)>/;
// A SubRip speaker prefix: 'Alice: ', 'DR. SMITH: ', '>> Bob: ', 'Speaker 2: ', '张三：'. A name
// is at most four capitalised words (or up to six letters of a script without case) and maybe a
// number, so 'He said: …' stays text.
const NAME_PREFIX =
  /^(?:>>\s*|-\s*)?((?:[\p{Lu}\p{Lt}][\p{L}\p{M}.'’-]*(?: [\p{Lu}\p{Lt}][\p{L}\p{M}.'’-]*){0,3}|\p{Lo}{1,6})(?: \d{1,3})?)\s*[:：]\s*(?=\S)/u;
const MAX_PREFIX_NAME = 40;

/**
 * Like parseCaptions, and who speaks: WebVTT voice tags (`<v Alice>Hello`) and SubRip
 * 'Name: text' prefixes (taken as names only when at least two cues have one, so a lone
 * 'Note: …' stays text) become the transcript's speakers, names as written, in order of
 * appearance; the prefix leaves the text. `locale` names unnamed voices ('Speaker 1').
 */
export function parseCaptionTranscript(
  raw: string,
  filename?: string,
  durationSec?: number,
  locale = 'en',
): { segments: Segment[]; speakers: Speaker[] } {
  const parsed = parseCues(raw, filename);
  if (parsed.format === 'srt') {
    const named = parsed.cues.map((c) => {
      const m = NAME_PREFIX.exec(c.text.trim());
      return m && m[1]!.length <= MAX_PREFIX_NAME ? m : null;
    });
    if (named.filter(Boolean).length >= 2) {
      parsed.cues = parsed.cues.map((c, i) => {
        const m = named[i];
        return m ? { ...c, text: c.text.trim().slice(m[0].length), voice: m[1]! } : c;
      });
    }
  }
  const labelled = parsed.cues.map(({ voice, ...cue }) => (voice ? { ...cue, speaker: voice } : cue));
  const { segments, speakers } = speakersFromLabels(labelled, locale, { keepNames: true });
  const clean = finish({ ...parsed, cues: segments }, durationSec);
  return { segments: clean, speakers: usedSpeakers(speakers, clean) };
}

function parseCues(raw: string, filename?: string): Parsed {
  // Stray NUL and control bytes (binary junk, broken encoders) go; line breaks and tabs stay.
  const text = stripControlChars(raw, { multiline: true });
  const format = detectCaptionFormat(text, filename);
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const cues: RawCue[] = [];
  let timingLines = 0;
  let i = 0;

  const skipBlock = (): void => {
    while (i < lines.length && !isBlank(lines[i] ?? '')) i++;
  };

  let hasHeader = false;
  if (format === 'vtt') {
    while (i < lines.length && isBlank(lines[i] ?? '')) i++;
    hasHeader = VTT_HEADER.test(lines[i] ?? '');
    if (hasHeader) {
      // The header block: the signature line plus optional metadata, up to a blank line (or,
      // leniently, the first timing line).
      while (i < lines.length && !isBlank(lines[i] ?? '') && !parseTiming(lines[i] ?? '')) i++;
    }
  }

  let blockStart = true;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (isBlank(line)) {
      blockStart = true;
      i++;
      continue;
    }
    if (format === 'vtt' && blockStart && VTT_SKIPPED_BLOCK.test(line.trim())) {
      skipBlock();
      continue;
    }
    blockStart = false;
    const timing = parseTiming(line);
    i++;
    // Anything before a timing line (SubRip numbers, WebVTT identifiers, garbage) is ignored.
    if (!timing) continue;
    timingLines++;
    const body: string[] = [];
    while (i < lines.length && !isBlank(lines[i] ?? '') && !parseTiming(lines[i] ?? '')) {
      body.push(lines[i] ?? '');
      i++;
    }
    // The cue ran into the next one without a blank line: a last line of digits is its number.
    if (i < lines.length && !isBlank(lines[i] ?? '') && /^\s*\d+\s*$/.test(body.at(-1) ?? '')) body.pop();
    const words = format === 'vtt' ? inlineWords(body, timing[0], timing[1]) : undefined;
    const cue: RawCue = words
      ? { start: timing[0], end: timing[1], text: cueText(body), words }
      : { start: timing[0], end: timing[1], text: cueText(body) };
    const voice = format === 'vtt' ? VOICE.exec(body.join(' '))?.[1] : undefined;
    const name = voice === undefined ? '' : decodeEntities(voice).trim();
    cues.push(name ? { ...cue, voice: name } : cue);
  }
  return { cues, format, timingLines, hasHeader, blank: isBlank(text) };
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/**
 * 'HH:MM:SS,mmm' (or with '.'), rounded to the millisecond; hours grow past two digits when
 * needed. Negative and non-finite values are written as zero.
 */
export function formatTimestamp(seconds: number, sep: ',' | '.'): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 0;
  const ms = total % 1000;
  const s = Math.floor(total / 1000) % 60;
  const m = Math.floor(total / 60_000) % 60;
  const h = Math.floor(total / 3_600_000);
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${sep}${pad(ms, 3)}`;
}

/** One line of cue text; blank texts are skipped by the serializers. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

// SubRip has no escaping convention and players show '&amp;' literally, so text is written as is
// except where the parser would read it as markup or an entity: only those '<', '{' and '&' are
// written as entities, which keeps the round trip exact.
const escapeSrt = (text: string): string => {
  const escaped = text
    .replace(/&(?=#\d{1,7};|#[xX][0-9a-fA-F]{1,6};|[a-zA-Z]+;)/g, '&amp;')
    .replace(/<(?=\/?[A-Za-z0-9][^<>]*>)/g, '&lt;')
    .replace(/\{(?=\\[^{}]*\})/g, '&#123;');
  // A text that reads as a timing line would start a new cue.
  return parseTiming(escaped) ? escaped.replace(/-->/g, '--&gt;') : escaped;
};

// WebVTT requires '&' and '<' to be escaped, and '-->' may not appear in cue text.
const escapeVtt = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\{(?=\\[^{}]*\})/g, '&#123;');

/**
 * SubRip: for each segment its 1-based number, 'HH:MM:SS,mmm --> HH:MM:SS,mmm', the text on one
 * line and a blank line. Segments with blank text are skipped (numbering stays consecutive).
 * Empty input gives ''.
 */
export function formatSrt(segments: readonly Segment[]): string {
  let out = '';
  let n = 0;
  for (const seg of segments) {
    const text = oneLine(seg.text);
    if (text === '') continue;
    n++;
    out += `${n}\n${formatTimestamp(seg.start, ',')} --> ${formatTimestamp(seg.end, ',')}\n${escapeSrt(text)}\n\n`;
  }
  return out;
}

/**
 * WebVTT: the 'WEBVTT' header and a blank line, then for each segment
 * 'HH:MM:SS.mmm --> HH:MM:SS.mmm', the escaped text on one line and a blank line.
 * Segments with blank text are skipped. Empty input gives 'WEBVTT\n'.
 */
export function formatVtt(segments: readonly Segment[]): string {
  let out = 'WEBVTT\n';
  for (const seg of segments) {
    const text = oneLine(seg.text);
    if (text === '') continue;
    out += `\n${formatTimestamp(seg.start, '.')} --> ${formatTimestamp(seg.end, '.')}\n${escapeVtt(text)}\n`;
  }
  return out;
}

/** A subtitle cue as the cue serializers take it (see ./cues: subtitleCues, segmentCues). */
export interface CaptionCue {
  start: number;
  end: number;
  lines: readonly string[];
  /** A speaker id: formatVttCues writes its name as a voice tag (`<v Name>`). */
  speaker?: string;
}

const cueLines = (lines: readonly string[], escape: (t: string) => string): string =>
  lines
    .map(oneLine)
    .filter((l) => l !== '')
    .map(escape)
    .join('\n');

/** SubRip from cues: like formatSrt, with each cue's lines on lines of their own. */
export function formatSrtCues(cues: readonly CaptionCue[]): string {
  let out = '';
  let n = 0;
  for (const cue of cues) {
    const text = cueLines(cue.lines, escapeSrt);
    if (text === '') continue;
    n++;
    out += `${n}\n${formatTimestamp(cue.start, ',')} --> ${formatTimestamp(cue.end, ',')}\n${text}\n\n`;
  }
  return out;
}

// A voice annotation ends at '>', so it may hold neither that nor '<' or '&' unescaped.
const voiceTag = (name: string | undefined): string => {
  const clean = name === undefined ? '' : oneLine(escapeVtt(name));
  return clean === '' ? '' : `<v ${clean}>`;
};

/**
 * WebVTT from cues: like formatVtt, with each cue's lines on lines of their own. With `names`
 * (speaker id → name), a cue with a named speaker opens with a voice tag: `<v Alice>Hello`.
 */
export function formatVttCues(cues: readonly CaptionCue[], names?: ReadonlyMap<string, string>): string {
  let out = 'WEBVTT\n';
  for (const cue of cues) {
    const text = cueLines(cue.lines, escapeVtt);
    if (text === '') continue;
    const voice = names && cue.speaker ? voiceTag(names.get(cue.speaker)) : '';
    out += `\n${formatTimestamp(cue.start, '.')} --> ${formatTimestamp(cue.end, '.')}\n${voice}${text}\n`;
  }
  return out;
}
