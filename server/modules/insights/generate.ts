// Summary and chapters from a transcript's segments. A transcript that fits the model's context
// is read in one completion; a longer one section by section (map), the sections' results then
// merged (reduce) with their citations, so nothing is cut: every segment is read once.
import type { Chapter, Summary } from '../../../common/insights';
import type { InsightStage } from '../../../common/record-states';
import type { Segment } from '../../../common/segments';
import { chapterClock } from '../../../common/insights';
import type { JsonSchema } from '../language-model/json-schema';
import { LanguageModelError, type ChatMessage, type LanguageModel } from '../language-model/types';
import {
  chapterRange,
  chaptersOutput,
  COMPACT_CHAPTERS,
  outputSize,
  summaryOutput,
  toChapters,
  toSummary,
  type ModelChapters,
  type ModelSummary,
  type OutputSize,
} from './model-output';
import {
  chaptersTask,
  mergeChaptersTask,
  mergeSummaryTask,
  summaryTask,
  SYSTEM_PROMPT,
  taskMessages,
} from './prompts';
import { estimateTokens, sections, transcriptLines, type Line } from './transcript-lines';

export interface GenerateInput {
  model: LanguageModel;
  segments: readonly Segment[];
  durationSec: number;
  /** The output language as the instruction names it (prompts.ts languageInstruction). */
  language: string;
  signal?: AbortSignal;
  /** Generated text, piece by piece; `phase` changes when a new completion starts. */
  onToken?: (text: string, phase: number) => void;
  onStage?: (stage: InsightStage, progress: number) => void;
  /** Sampling temperature (default: the adapter's, 0.2); 0 decodes greedily (the tests). */
  temperature?: number;
}

/** Room for the instructions and the chat template around the material. */
const OVERHEAD_TOKENS = estimateTokens(SYSTEM_PROMPT) + 400;
/** A section that still overflows is split again this many times before giving up. */
const MAX_SPLITS = 4;

/**
 * The segment numbers an answer may cite, listed in the schema for a grammar-constrained (local)
 * model only: an endpoint's model citing a segment it was not given must not fail the whole
 * answer; its invented citations are dropped afterwards like any other.
 */
const listed = (model: LanguageModel, numbers: readonly number[]) =>
  model.kind === 'local' ? numbers : undefined;

export function inputBudget(model: LanguageModel, answer: number): number {
  return Math.max(128, model.contextTokens - answer - OVERHEAD_TOKENS);
}

/** Runs one structured completion, streaming its text; `phase` numbers the completions. */
function runner(input: GenerateInput) {
  let phase = 0;
  return async <T>(messages: ChatMessage[], schema: JsonSchema, maxTokens: number): Promise<T> => {
    const current = ++phase;
    const result = await input.model.complete({
      messages,
      schema,
      maxTokens,
      temperature: input.temperature,
      signal: input.signal,
      onToken: input.onToken ? (t) => input.onToken!(t, current) : undefined,
      onPreparing: (p) => input.onStage?.('preparing', p),
    });
    return result.json as T;
  };
}

/**
 * How far over the budget an estimate may be and the transcript still be tried whole. The estimate
 * counts about three characters a token, on the safe side; English runs nearer four with the
 * models' tokenizers (Qwen's, OpenAI's), so a one-hour meeting of ≈ 10,000 tokens is estimated at
 * ≈ 14,000, just over a 16,384-token context's budget — and reading it in two sections costs two
 * answers and a merge instead of one answer, the most expensive part on a small machine (the local
 * model writes a few tokens a second). Trying it whole costs little when it does not fit: the local
 * model's child counts the prompt's tokens and refuses before evaluating any, an endpoint refuses
 * before generating.
 */
const WHOLE_MARGIN = 1.5;

const overflowed = (err: unknown) => err instanceof LanguageModelError && err.code === 'context_overflow';

/**
 * Lines split into sections that fit `budget`, smaller each time the model says a section did not
 * fit (our estimate was short), up to MAX_SPLITS times. Lines that may fit whole (WHOLE_MARGIN)
 * are tried whole first.
 */
export async function mapSections<R>(
  lines: readonly Line[],
  budget: number,
  each: (section: Line[], index: number, of: number) => Promise<R>,
): Promise<R[]> {
  const estimate = lines.reduce((n, l) => n + l.tokens, 0);
  if (estimate > budget && estimate <= budget * WHOLE_MARGIN) {
    try {
      return [await each([...lines], 0, 1)];
    } catch (err) {
      if (!overflowed(err)) throw err;
    }
  }
  for (let split = 0; ; split++) {
    const parts = sections(lines, Math.floor(budget / 2 ** split));
    try {
      const out: R[] = [];
      for (let i = 0; i < parts.length; i++) out.push(await each(parts[i]!, i, parts.length));
      return out;
    } catch (err) {
      if (!overflowed(err) || split >= MAX_SPLITS || parts.every((p) => p.length === 1)) throw err;
    }
  }
}

const body = (lines: readonly Line[]) => lines.map((l) => l.text).join('\n');

export async function generateSummary(input: GenerateInput): Promise<Summary> {
  const run = runner(input);
  const lines = transcriptLines(input.segments);
  const size = outputSize(input.model.contextTokens);
  const budget = inputBudget(input.model, size.answerTokens);
  input.onStage?.('reading', 0);
  const partials = await mapSections(lines, budget, async (section, i, of) => {
    const part = of > 1 ? { index: i + 1, of } : undefined;
    const out = await run<ModelSummary>(
      taskMessages(
        { tag: 'transcript', attrs: part ? `part="${part.index} of ${of}"` : undefined, body: body(section) },
        summaryTask(input.language, part),
      ),
      summaryOutput(
        size,
        listed(
          input.model,
          section.map((l) => l.index),
        ),
      ),
      size.answerTokens,
    );
    input.onStage?.('reading', Math.round(((i + 1) / of) * 100));
    // A section cites its own segments only.
    const own = new Set(section.map((l) => l.index));
    return keepCites(out, (n) => own.has(n));
  });
  let merged = partials;
  while (merged.length > 1) {
    input.onStage?.('merging', 0);
    merged = await mergeSummaries(input, run, merged, budget, size);
  }
  return toSummary(input.segments, merged[0]!);
}

function keepCites(s: ModelSummary, keep: (n: number) => boolean): ModelSummary {
  const f = <P extends { segments: number[] }>(p: P): P => ({ ...p, segments: p.segments.filter(keep) });
  return {
    bottomLine: f(s.bottomLine),
    keyPoints: s.keyPoints.map(f),
    decisions: s.decisions.map(f),
    actionItems: s.actionItems.map(f),
    openQuestions: s.openQuestions.map(f),
  };
}

/** One round of merging: groups of partial summaries that fit the context, each merged into one. */
async function mergeSummaries(
  input: GenerateInput,
  run: ReturnType<typeof runner>,
  partials: ModelSummary[],
  budget: number,
  size: OutputSize,
): Promise<ModelSummary[]> {
  const texts = partials.map((p, i) => `Part ${i + 1}: ${JSON.stringify(p)}`);
  const groups: string[][] = [[]];
  let used = 0;
  for (const t of texts) {
    const cost = estimateTokens(t);
    if (groups.at(-1)!.length > 0 && used + cost > budget) {
      groups.push([]);
      used = 0;
    }
    groups.at(-1)!.push(t);
    used += cost;
  }
  // Every group must merge at least two parts, or the rounds would never end.
  if (groups.every((g) => g.length === 1) && groups.length > 1) {
    for (let i = 0; i + 1 < groups.length; i++) groups.splice(i, 2, [...groups[i]!, ...groups[i + 1]!]);
  }
  const known = new Set(partials.flatMap((p) => citesOf(p)));
  const schema = summaryOutput(
    size,
    listed(
      input.model,
      [...known].sort((a, b) => a - b),
    ),
  );
  /** One merged summary of the group; a group the model says does not fit is merged in halves. */
  const mergeGroup = async (group: string[]): Promise<ModelSummary> => {
    if (group.length === 1) return partials[texts.indexOf(group[0]!)]!;
    try {
      const merged = await run<ModelSummary>(
        taskMessages(
          { tag: 'notes', body: group.join('\n') },
          mergeSummaryTask(input.language, group.length),
        ),
        schema,
        size.answerTokens,
      );
      // A merge keeps the parts' citations; it does not find new ones.
      return keepCites(merged, (n) => known.has(n));
    } catch (err) {
      if (!overflowed(err)) throw err;
      const half = Math.ceil(group.length / 2);
      if (group.length > 2)
        return joinSummaries(size, [
          await mergeGroup(group.slice(0, half)),
          await mergeGroup(group.slice(half)),
        ]);
      return joinSummaries(
        size,
        group.map((t) => partials[texts.indexOf(t)]!),
      );
    }
  };
  const out: ModelSummary[] = [];
  for (const [i, group] of groups.entries()) {
    out.push(await mergeGroup(group));
    input.onStage?.('merging', Math.round(((i + 1) / groups.length) * 100));
  }
  return out;
}

/**
 * Two notes the model cannot read together (their estimate was short: a small context, text that
 * tokenizes densely) joined without it: the first bottom line, the lists one after the other up to
 * their limits, every kept item with its citations. The rounds of merging then go on.
 */
function joinSummaries(size: OutputSize, parts: ModelSummary[]): ModelSummary {
  const all = <K extends 'keyPoints' | 'decisions' | 'actionItems' | 'openQuestions'>(k: K, max: number) =>
    parts.flatMap((p) => p[k] as ModelSummary[K]).slice(0, max) as ModelSummary[K];
  return {
    bottomLine: parts[0]!.bottomLine,
    keyPoints: all('keyPoints', size.keyPoints),
    decisions: all('decisions', size.others),
    actionItems: all('actionItems', size.others),
    openQuestions: all('openQuestions', size.others),
  };
}

const citesOf = (s: ModelSummary) =>
  [s.bottomLine, ...s.keyPoints, ...s.decisions, ...s.actionItems, ...s.openQuestions].flatMap(
    (p) => p.segments,
  );

export async function generateChapters(input: GenerateInput): Promise<Chapter[]> {
  const run = runner(input);
  const lines = transcriptLines(input.segments);
  if (lines.length === 0) return [];
  const size = outputSize(input.model.contextTokens);
  const full = chapterRange(input.durationSec, lines.length);
  // A compact answer holds fewer chapters.
  const range =
    size.answerTokens < 1500 || input.model.contextTokens < 8192
      ? { min: Math.min(full.min, COMPACT_CHAPTERS), max: Math.min(full.max, COMPACT_CHAPTERS) }
      : full;
  const budget = inputBudget(input.model, size.answerTokens);
  input.onStage?.('reading', 0);
  const candidates = (
    await mapSections(lines, budget, async (section, i, of) => {
      const first = section[0]!.index;
      const own = new Set(section.map((l) => l.index));
      const sectionRange =
        of === 1
          ? range
          : (() => {
              const span = (section.at(-1)!.start - section[0]!.start) / Math.max(1, input.durationSec);
              const max = Math.max(1, Math.min(section.length, Math.ceil(range.max * span) + 1));
              return { min: 1, max };
            })();
      const out = await run<ModelChapters>(
        taskMessages(
          { tag: 'transcript', attrs: of > 1 ? `part="${i + 1} of ${of}"` : undefined, body: body(section) },
          chaptersTask(input.language, sectionRange, of > 1 ? { index: i + 1, of, first } : undefined),
        ),
        chaptersOutput(
          sectionRange,
          size,
          listed(
            input.model,
            section.map((l) => l.index),
          ),
        ),
        size.answerTokens,
      );
      input.onStage?.('reading', Math.round(((i + 1) / of) * 100));
      return out.chapters.filter((c) => own.has(c.segment));
    })
  ).flat();
  const ordered = toChapters(input.segments, { chapters: candidates }, Number.MAX_SAFE_INTEGER);
  if (ordered.length <= range.max) return ordered;
  input.onStage?.('merging', 0);
  const list = ordered
    .map((c) => `[${c.segment}] ${chapterClock(c.start)} ${c.title} — ${c.summary}`)
    .join('\n');
  const merged = await run<ModelChapters>(
    taskMessages({ tag: 'candidates', body: list }, mergeChaptersTask(input.language, range)),
    chaptersOutput(
      range,
      size,
      listed(
        input.model,
        ordered.map((c) => c.segment),
      ),
    ),
    size.answerTokens,
  );
  const allowed = new Set(ordered.map((c) => c.segment));
  const kept = merged.chapters.filter((c) => allowed.has(c.segment));
  input.onStage?.('merging', 100);
  return toChapters(input.segments, { chapters: kept.length > 0 ? kept : ordered }, range.max);
}
