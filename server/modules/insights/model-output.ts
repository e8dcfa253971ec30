// What the model is asked to return (JSON schemas both adapters can constrain or validate), and
// how that becomes what is stored: references to segments that do not exist are dropped, a point
// left without any is dropped, chapters start at real segment starts, the first at 0:00.
import type { Chapter, CitedText, Summary } from '../../../common/insights';
import type { Segment } from '../../../common/segments';
import type { JsonSchema } from '../language-model/json-schema';

/**
 * How much an answer may hold. A model's context holds the prompt and the answer together, so a
 * small context (a small local setting, the tests' tiny model) gets a compact answer: fewer items
 * and shorter texts. The bounds also keep a weak model from writing on until it is cut off.
 */
export interface OutputSize {
  text: number;
  bottomLine: number;
  keyPoints: number;
  others: number;
  refs: number;
  title: number;
  chapterSummary: number;
  /** Tokens kept for the answer. */
  answerTokens: number;
}

const FULL: OutputSize = {
  text: 240,
  bottomLine: 400,
  keyPoints: 8,
  others: 6,
  refs: 4,
  title: 80,
  chapterSummary: 200,
  answerTokens: 1500,
};
const COMPACT: OutputSize = {
  text: 80,
  bottomLine: 120,
  keyPoints: 3,
  others: 2,
  refs: 2,
  title: 40,
  chapterSummary: 60,
  answerTokens: 1500,
};

/** Most chapters one compact answer holds. */
export const COMPACT_CHAPTERS = 8;

/** The answer size for a model with this many tokens of context. */
export const outputSize = (contextTokens: number): OutputSize => (contextTokens >= 8192 ? FULL : COMPACT);

/** Most values an enum of segment numbers lists (OpenAI's structured outputs take 500). */
const MAX_ENUM = 500;

/**
 * A segment number: one of `allowed` when they are few enough to list, so a grammar-constrained
 * model can only cite segments it was given (and cannot write a number without end); else any
 * integer (a grammar cannot bound one), checked afterwards like every citation (toSummary,
 * toChapters).
 */
export function segmentNumber(allowed?: readonly number[]): JsonSchema {
  return allowed && allowed.length > 0 && allowed.length <= MAX_ENUM
    ? { type: 'integer', enum: [...allowed] }
    : { type: 'integer' };
}

const refs = (size: OutputSize, allowed?: readonly number[]): JsonSchema => ({
  type: 'array',
  maxItems: size.refs,
  items: segmentNumber(allowed),
});

export function summaryOutput(size: OutputSize, allowed?: readonly number[]): JsonSchema {
  const cited = (maxLength: number): JsonSchema => ({
    type: 'object',
    properties: { text: { type: 'string', minLength: 1, maxLength }, segments: refs(size, allowed) },
  });
  const list = (maxItems: number, item: JsonSchema = cited(size.text)): JsonSchema => ({
    type: 'array',
    maxItems,
    items: item,
  });
  return {
    type: 'object',
    properties: {
      bottomLine: cited(size.bottomLine),
      keyPoints: list(size.keyPoints),
      decisions: list(size.others),
      actionItems: list(size.others, {
        type: 'object',
        properties: {
          text: { type: 'string', minLength: 1, maxLength: size.text },
          owner: { type: ['string', 'null'], maxLength: 60 },
          due: { type: ['string', 'null'], maxLength: 60 },
          segments: refs(size, allowed),
        },
      }),
      openQuestions: list(size.others),
    },
  };
}

export interface ModelCited {
  text: string;
  segments: number[];
}
export interface ModelSummary {
  bottomLine: ModelCited;
  keyPoints: ModelCited[];
  decisions: ModelCited[];
  actionItems: (ModelCited & { owner: string | null; due: string | null })[];
  openQuestions: ModelCited[];
}

export function chaptersOutput(
  range: { min: number; max: number },
  size: OutputSize,
  allowed?: readonly number[],
): JsonSchema {
  return {
    type: 'object',
    properties: {
      chapters: {
        type: 'array',
        minItems: range.min,
        maxItems: range.max,
        items: {
          type: 'object',
          properties: {
            segment: segmentNumber(allowed),
            title: { type: 'string', minLength: 1, maxLength: size.title },
            summary: { type: 'string', maxLength: size.chapterSummary },
          },
        },
      },
    },
  };
}
export interface ModelChapters {
  chapters: { segment: number; title: string; summary: string }[];
}

/** YouTube shows chapters of at least ten seconds; ours keep to that too. */
export const MIN_CHAPTER_SEC = 10;

/**
 * How many chapters a transcript gets: 3–15, about one per four minutes, fewer for a short video
 * (1 under three minutes, 2 under five), never more than its segments.
 */
export function chapterRange(durationSec: number, segmentCount: number): { min: number; max: number } {
  const minutes = durationSec / 60;
  const max = minutes < 3 ? 1 : minutes < 5 ? 2 : Math.min(15, Math.max(3, Math.round(minutes / 4)));
  const capped = Math.max(1, Math.min(max, segmentCount));
  return { min: Math.min(capped, minutes < 5 ? 1 : 3), max: capped };
}

/** The segments a model cited that exist, in order, once each. */
export function realCites(segments: readonly Segment[], cited: readonly number[]) {
  const seen = new Set<number>();
  const out: { segment: number; start: number }[] = [];
  for (const n of [...cited].sort((a, b) => a - b)) {
    if (!Number.isInteger(n) || n < 0 || n >= segments.length || seen.has(n)) continue;
    seen.add(n);
    out.push({ segment: n, start: segments[n]!.start });
  }
  return out;
}

const clean = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The model's summary as stored: only real citations; points without one are dropped. */
export function toSummary(segments: readonly Segment[], out: ModelSummary): Summary {
  const point = (p: ModelCited): CitedText | null => {
    const text = clean(p.text);
    const cites = realCites(segments, p.segments);
    return text && cites.length > 0 ? { text, cites } : null;
  };
  const points = (ps: readonly ModelCited[]) => ps.map(point).filter((p): p is CitedText => p !== null);
  return {
    bottomLine: { text: clean(out.bottomLine.text), cites: realCites(segments, out.bottomLine.segments) },
    keyPoints: points(out.keyPoints),
    decisions: points(out.decisions),
    actionItems: out.actionItems.flatMap((a) => {
      const p = point(a);
      return p ? [{ ...p, owner: clean(a.owner) || null, due: clean(a.due) || null }] : [];
    }),
    openQuestions: points(out.openQuestions),
  };
}

/**
 * The model's chapters as stored: at real segments, in order, one per segment, at least ten
 * seconds apart, at most `max`; the first starts at the first segment (0:00 in the YouTube block).
 */
export function toChapters(segments: readonly Segment[], out: ModelChapters, max: number): Chapter[] {
  const valid = out.chapters
    .filter((c) => Number.isInteger(c.segment) && c.segment >= 0 && c.segment < segments.length)
    .sort((a, b) => a.segment - b.segment);
  const chapters: Chapter[] = [];
  for (const c of valid) {
    const title = clean(c.title);
    if (!title) continue;
    const prev = chapters.at(-1);
    const start = segments[c.segment]!.start;
    if (prev && (c.segment === prev.segment || start - prev.start < MIN_CHAPTER_SEC)) continue;
    chapters.push({ segment: c.segment, start, title, summary: clean(c.summary) });
    if (chapters.length === max) break;
  }
  if (chapters.length > 0 && chapters[0]!.segment !== 0) {
    // The first chapter covers the opening too: YouTube's list starts at 0:00.
    const first = chapters[0]!;
    chapters[0] = { ...first, segment: 0, start: segments[0]!.start };
    if (chapters[1] && chapters[1].start - chapters[0].start < MIN_CHAPTER_SEC) chapters.splice(1, 1);
  }
  return chapters;
}
