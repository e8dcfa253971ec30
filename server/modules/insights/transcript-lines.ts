// The transcript as a language model reads it: one line per segment, `[n] text`, where n is the
// segment's index (what citations name), the first line of each minute with its time as well,
// `[n] mm:ss text`. Text is data: a segment cannot end the transcript's delimiters nor start a
// line of its own.
import { createHash } from 'node:crypto';
import type { Segment } from '../../../common/segments';
import { chapterClock } from '../../../common/insights';

export interface Line {
  index: number;
  start: number;
  text: string;
  tokens: number;
}

/** A segment's text on one line, with anything that looks like our delimiters taken out. */
export function cleanText(text: string): string {
  return text
    .replace(/<\/?\s*(transcripts?|notes|candidates|question|instructions|conversation)\b[^>]*>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/g;

/**
 * Tokens a text takes, estimated on the safe side (the adapters do not count before sending):
 * about three characters per token for alphabetic scripts, one per CJK character. A wrong guess
 * only costs a split; the model refuses an overflow rather than cutting (context_overflow).
 */
export function estimateTokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return Math.ceil((text.length - cjk) / 3) + cjk;
}

/**
 * The lines of a transcript. A time on every line costs about six tokens a line — a fifth of a
 * meeting's prompt, read twice (summary, chapters) by a model that reads 40–100 tokens a second on
 * two cores — and citations name segments, not times; so by default only the first line of each
 * minute carries one, enough for the model to know where it is. `clock: 'every'` puts one on
 * every line (questions about a moment: Ask).
 */
export function transcriptLines(
  segments: readonly Segment[],
  opts: { clock?: 'every' | 'minute' } = {},
): Line[] {
  let minute = -1;
  return segments.flatMap((s, index) => {
    const text = cleanText(s.text);
    if (!text) return [];
    const m = Math.floor(s.start / 60);
    const clock = opts.clock === 'every' || m !== minute ? `${chapterClock(s.start)} ` : '';
    minute = m;
    const line = `[${index}] ${clock}${text}`;
    return [{ index, start: s.start, text: line, tokens: estimateTokens(line) + 1 }];
  });
}

/**
 * Consecutive runs of lines whose estimated tokens fit `budget` each. A single line longer than
 * the budget is a section of its own (the model then says whether it fits): nothing is dropped.
 */
export function sections(lines: readonly Line[], budget: number): Line[][] {
  const out: Line[][] = [];
  let current: Line[] = [];
  let used = 0;
  for (const line of lines) {
    if (current.length > 0 && used + line.tokens > budget) {
      out.push(current);
      current = [];
      used = 0;
    }
    current.push(line);
    used += line.tokens;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * The transcript revision an output was made from: a hash of what the model read (each segment's
 * start and text). Renaming or re-assigning speakers does not make outputs stale; an edit does.
 */
export function revisionOf(segments: readonly Segment[]): string {
  const hash = createHash('sha256');
  for (const s of segments) hash.update(`${s.start.toFixed(3)}\u0000${s.text}\u0001`);
  return hash.digest('base64url').slice(0, 22);
}
