// Subtitle cues from transcript segments, following common subtitle practice (the Netflix and BBC
// style guides agree on the figures): at most 2 lines of at most 42 characters (16 in Chinese,
// Japanese and Korean), at most 7 s on screen, about 20 characters per second, breaks at
// punctuation and pauses. Times come from the words when the segment has them, else from the
// position of the text inside the segment.
import { wordRanges, type Segment } from './segments';
import { isUnspacedText } from './words';

export interface Cue {
  start: number;
  end: number;
  /** One or more lines of text (formatSrt / formatVtt write them one per line). */
  lines: string[];
  /** The id of who says it (the segment's speaker): a cue never holds two speakers. */
  speaker?: string;
  /**
   * With `withTokens`: the cue's text (without the prefix) cut into timed pieces, words or
   * characters of unspaced scripts, each with the white space after it (karaoke captions).
   */
  tokens?: CueToken[];
}

export interface CueToken {
  text: string;
  start: number;
  end: number;
}

export interface CueOptions {
  /** The transcript's language code, when known: Chinese, Japanese and Korean get shorter lines. */
  language?: string | null;
  maxLineChars?: number;
  maxLines?: number;
  maxSec?: number;
  /** Reading speed in characters per second: a cue stays up long enough to be read when it can. */
  maxCps?: number;
  /**
   * Text put before every cue of a segment and counted in its lines (SubRip's 'Name: '); the
   * caller passes segments with one speaker each (see speakerRuns in ./speakers).
   */
  prefixOf?: (seg: Segment) => string;
  /** Keep each cue's timed tokens (Cue.tokens). */
  withTokens?: boolean;
}

export const CUE_DEFAULTS = { maxLineChars: 42, cjkLineChars: 16, maxLines: 2, maxSec: 7, maxCps: 20 };

const CJK_LANGUAGES = new Set(['zh', 'ja', 'ko', 'yue']);
const HANGUL = /\p{Script=Hangul}/u;
const SENTENCE_END = /[.!?。！？…؟।]["'”’»)\]）」』]*$/u;
const CLAUSE_END = /[,;:，；：、—–]["'”’»)\]）」』]*$/u;
const SPACE = /\s/;

const chars = (s: string) => [...s].length;
const round = (x: number) => Math.round(x * 1000) / 1000;

interface Token {
  /** [from, to) in the segment's text; `to` excludes the white space after the token. */
  from: number;
  to: number;
  start: number;
  end: number;
}

/** Cuts a segment's text into timed tokens (words; characters in unspaced scripts). */
function tokensOf(seg: Segment, unspaced: boolean): Token[] {
  const { text } = seg;
  const spans: [number, number][] = [];
  const re = unspaced ? /[\p{L}\p{N}\p{M}'’-]+[\p{P}\p{S}]*|\S[\p{P}\p{S}]*/gu : /\S+/g;
  for (const m of text.matchAll(re)) {
    if (!unspaced) {
      spans.push([m.index, m.index + m[0].length]);
      continue;
    }
    // Unspaced scripts: one token per character (Latin runs inside stay whole), punctuation attached.
    let at = m.index;
    for (const part of m[0].match(
      /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}][\p{P}\p{S}]*|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]+/gu,
    ) ?? []) {
      spans.push([at, at + part.length]);
      at += part.length;
    }
  }
  const span = Math.max(0, seg.end - seg.start);
  // Default timing: by position in the text.
  const tokens: Token[] = spans.map(([from, to]) => ({
    from,
    to,
    start: seg.start + (span * from) / Math.max(1, text.length),
    end: seg.start + (span * to) / Math.max(1, text.length),
  }));
  if (seg.words?.length) {
    // Word timing: a token inside a word's text takes the word's time (shared when a word holds several tokens).
    const ranges = wordRanges(text, seg.words);
    seg.words.forEach((w, i) => {
      const r = ranges[i];
      if (!r) return;
      const inside = tokens.filter((t) => t.from >= r[0] && t.from < r[1]);
      const len = Math.max(1, r[1] - r[0]);
      for (const t of inside) {
        t.start = w.start + ((w.end - w.start) * (t.from - r[0])) / len;
        t.end = w.start + ((w.end - w.start) * (Math.min(t.to, r[1]) - r[0])) / len;
      }
    });
    // Keep time moving forward through tokens no word covered.
    for (let i = 1; i < tokens.length; i++) {
      if (tokens[i]!.start < tokens[i - 1]!.end) tokens[i]!.start = tokens[i - 1]!.end;
      if (tokens[i]!.end < tokens[i]!.start) tokens[i]!.end = tokens[i]!.start;
    }
  }
  return tokens;
}

/**
 * Splits one cue's text into at most `maxLines` lines of at most `maxChars` characters, as even as
 * possible, preferring a break after punctuation; null when it cannot fit.
 */
export function wrapLines(
  text: string,
  maxChars: number,
  maxLines: number,
  unspaced: boolean,
): string[] | null {
  if (chars(text) <= maxChars) return [text];
  if (maxLines < 2 || chars(text) > maxChars * maxLines + maxLines) return null;
  const points: number[] = [];
  for (let i = 1; i < text.length; i++) {
    if (unspaced) {
      if (!SPACE.test(text[i]!) && !/[\p{P}]/u.test(text[i]!) && !/[\uDC00-\uDFFF]/.test(text[i]!))
        points.push(i);
    } else if (SPACE.test(text[i]!) && !SPACE.test(text[i - 1]!)) points.push(i);
  }
  let best: string[] | null = null;
  let bestScore = Infinity;
  for (const p of points) {
    const first = text.slice(0, p).trim();
    const rest = text.slice(p).trim();
    if (chars(first) > maxChars) continue;
    const tail = wrapLines(rest, maxChars, maxLines - 1, unspaced);
    if (!tail) continue;
    const lengths = [chars(first), ...tail.map(chars)];
    // Even lines, a bottom line no shorter than needed, and a break after punctuation when it costs little.
    const score =
      Math.max(...lengths) -
      Math.min(...lengths) +
      (/[\p{P}]$/u.test(first) ? -6 : 0) +
      (lengths.length - 1) * 2;
    if (score < bestScore) {
      bestScore = score;
      best = [first, ...tail];
    }
  }
  return best;
}

/** Subtitle-sized cues (see the module comment); segments are never merged together. */
export function subtitleCues(segments: readonly Segment[], opts: CueOptions = {}): Cue[] {
  const maxLines = opts.maxLines ?? CUE_DEFAULTS.maxLines;
  const maxSec = opts.maxSec ?? CUE_DEFAULTS.maxSec;
  const maxCps = opts.maxCps ?? CUE_DEFAULTS.maxCps;
  const cjkLanguage = !!opts.language && CJK_LANGUAGES.has(opts.language.toLowerCase().split('-')[0]!);
  const cues: Cue[] = [];

  for (const raw of segments) {
    const seg = { ...raw, text: raw.text.replace(/\s+/g, ' ').trim() };
    if (seg.text === '') continue;
    const unspaced = isUnspacedText(seg.text);
    const cjk = cjkLanguage || unspaced || HANGUL.test(seg.text);
    const maxChars = opts.maxLineChars ?? (cjk ? CUE_DEFAULTS.cjkLineChars : CUE_DEFAULTS.maxLineChars);
    const tokens = tokensOf(seg, unspaced);
    const prefix = opts.prefixOf?.(raw) ?? '';
    const slice = (i: number, j: number) => seg.text.slice(tokens[i]!.from, tokens[j]!.to);
    const fits = (i: number, j: number) =>
      tokens[j]!.end - tokens[i]!.start <= maxSec + 1e-9 &&
      wrapLines(prefix + slice(i, j), maxChars, maxLines, unspaced) !== null;

    let i = 0;
    while (i < tokens.length) {
      let last = i;
      while (last + 1 < tokens.length && fits(i, last + 1)) last++;
      let cut = last;
      if (last + 1 < tokens.length) {
        // Break where the text and the speaker pause: a sentence end, a clause end, a silence.
        const total = chars(slice(i, last));
        let bestScore = 0;
        for (let b = i; b < last; b++) {
          const t = seg.text.slice(tokens[b]!.from, tokens[b]!.to);
          const pause = Math.max(0, tokens[b + 1]!.start - tokens[b]!.end);
          const filled = chars(slice(i, b)) / Math.max(1, total);
          if (filled < 0.35) continue;
          const score =
            (SENTENCE_END.test(t) ? 3 : CLAUSE_END.test(t) ? 2 : 0) +
            (pause >= 0.3 ? 1 + Math.min(pause, 2) : 0);
          if (score > 0 && score + filled >= bestScore) {
            bestScore = score + filled;
            cut = b;
          }
        }
      }
      const text = prefix + slice(i, cut);
      const lines = wrapLines(text, maxChars, maxLines, unspaced) ?? hardWrap(text, maxChars);
      const cue: Cue = { start: round(tokens[i]!.start), end: round(tokens[cut]!.end), lines };
      if (opts.withTokens) {
        cue.tokens = tokens.slice(i, cut + 1).map((t, k, all) => ({
          text: seg.text.slice(t.from, k + 1 < all.length ? all[k + 1]!.from : t.to),
          start: round(t.start),
          end: round(t.end),
        }));
      }
      cues.push(raw.speaker ? { ...cue, speaker: raw.speaker } : cue);
      i = cut + 1;
    }
  }

  // Give each cue the time it needs to be read, without running into the next one or past maxSec.
  for (let k = 0; k < cues.length; k++) {
    const cue = cues[k]!;
    const next = cues[k + 1];
    const needed = chars(cue.lines.join(' ')) / maxCps;
    const limit = Math.min(next ? next.start : Infinity, cue.start + maxSec);
    if (cue.end - cue.start < needed) cue.end = round(Math.max(cue.end, Math.min(cue.start + needed, limit)));
    if (next && cue.end > next.start) cue.end = Math.max(cue.start, next.start);
  }
  return cues;
}

/** A single unbreakable run longer than a line (a URL, a long compound): cut by characters. */
function hardWrap(text: string, maxChars: number): string[] {
  const cps = [...text];
  const out: string[] = [];
  for (let i = 0; i < cps.length; i += maxChars)
    out.push(
      cps
        .slice(i, i + maxChars)
        .join('')
        .trim(),
    );
  return out.filter(Boolean);
}

/** One cue per segment, its text on one line (the export option that keeps segments whole). */
export function segmentCues(segments: readonly Segment[], prefixOf?: (seg: Segment) => string): Cue[] {
  const cues: Cue[] = [];
  for (const s of segments) {
    const text = s.text.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    const cue: Cue = { start: s.start, end: s.end, lines: [(prefixOf?.(s) ?? '') + text] };
    cues.push(s.speaker ? { ...cue, speaker: s.speaker } : cue);
  }
  return cues;
}
