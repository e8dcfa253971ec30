// A template's output (decision 0037): the user's own instructions run on a transcript, answered
// as Markdown citing segments `[12]`, which become `[12:34]` clocks when the segment exists (an
// invented one is dropped). The instructions are the task; the transcript stays delimited data.
// A transcript longer than the context is read section by section into cited notes, which are
// condensed until they fit, then the template is run on the notes: nothing is cut.
import { citedNumbers, citeSegments } from '../../../common/cited-markdown';
import type { Segment } from '../../../common/segments';
import type { ChatMessage } from '../language-model/types';
import { inputBudget, mapSections, type GenerateInput } from './generate';
import { taskMessages } from './prompts';
import { cleanText, estimateTokens, transcriptLines } from './transcript-lines';

const FORMAT = [
  'Write Markdown: headings (#, ##), paragraphs, lists with "-" or "1.", **bold** and *italic* only; no HTML, no links, no images, no tables.',
  'After each statement, cite the segments it comes from by their numbers in square brackets, like [12] or [3, 7]. Never cite a number that is not in the material.',
  'Use only what the material says. Reply with the Markdown only.',
].join('\n');

/** The user's instructions as a task: on one line each, without anything that looks like our tags. */
const own = (instructions: string) =>
  instructions
    .split(/\r?\n/)
    .map((l) => cleanText(l))
    .filter(Boolean)
    .join('\n');

export function templateTask(instructions: string, language: string, onNotes = false): string {
  return [
    onNotes
      ? 'The notes are cited notes of consecutive parts of one transcript. Do the task below for the whole transcript from them; keep the segment numbers of what you use.'
      : 'Do the task below on the transcript.',
    `Task (written by the user):\n${own(instructions)}`,
    `Write in ${language}.`,
    FORMAT,
  ].join('\n\n');
}

export function notesTask(instructions: string, part: { index: number; of: number }): string {
  return [
    `This is part ${part.index} of ${part.of} of a longer transcript. Take notes on this part only for the task below: everything it will need, as a Markdown list, each note citing its segments like [12].`,
    `Task (written by the user):\n${own(instructions)}`,
    'Write the notes in English. Reply with the notes only.',
  ].join('\n\n');
}

const CONDENSE_TASK =
  'The notes are cited notes of consecutive parts of one transcript. Condense them into one shorter Markdown list that keeps what matters, each note keeping the segment numbers [12] it had; never add other numbers. Reply with the notes only.';

/** Tokens kept for a template's answer: Markdown runs longer than a summary's JSON. */
export const templateAnswerTokens = (contextTokens: number) =>
  contextTokens >= 8192 ? 2000 : Math.max(256, Math.floor(contextTokens / 4));

export interface TemplateInput extends Omit<GenerateInput, 'durationSec'> {
  /** The template's instructions: the user's own, the task of this run. */
  instructions: string;
}

export async function generateTemplate(input: TemplateInput & { segments: readonly Segment[] }) {
  let phase = 0;
  const answer = templateAnswerTokens(input.model.contextTokens);
  const text = async (messages: ChatMessage[], maxTokens: number) => {
    const current = ++phase;
    const result = await input.model.complete({
      messages,
      maxTokens,
      temperature: input.temperature,
      signal: input.signal,
      onToken: input.onToken ? (t) => input.onToken!(t, current) : undefined,
      onPreparing: (p) => input.onStage?.('preparing', p),
    });
    return result.text.trim();
  };
  const starts = input.segments.map((s) => s.start);
  const lines = transcriptLines(input.segments);
  const budget = inputBudget(input.model, answer + estimateTokens(input.instructions));
  input.onStage?.('reading', 0);

  // One section: the template on the transcript itself.
  const notes = await mapSections(lines, budget, async (section, i, of) => {
    const messages =
      of === 1
        ? taskMessages(
            { tag: 'transcript', body: section.map((l) => l.text).join('\n') },
            templateTask(input.instructions, input.language),
          )
        : taskMessages(
            {
              tag: 'transcript',
              attrs: `part="${i + 1} of ${of}"`,
              body: section.map((l) => l.text).join('\n'),
            },
            notesTask(input.instructions, { index: i + 1, of }),
          );
    const out = await text(messages, answer);
    input.onStage?.('reading', Math.round(((i + 1) / of) * 100));
    // A section cites its own segments only.
    const mine = new Set(section.map((l) => l.index));
    return { text: out, of, keep: (n: number) => mine.has(n) };
  });
  if (notes.length === 1 && notes[0]!.of === 1)
    return citeSegments(notes[0]!.text, starts, notes[0]!.keep).markdown;

  // Numbers a section's notes cite outside the section are dropped before they go on.
  let parts = notes.map((n) => keepOnly(n.text, n.keep));
  const known = new Set(parts.flatMap((p) => citedNumbers(p)));
  input.onStage?.('merging', 0);
  while (estimateTokens(parts.join('\n\n')) > budget && parts.length > 1) {
    const groups = groupsThatFit(parts, budget);
    const next: string[] = [];
    for (const group of groups)
      next.push(
        group.length === 1
          ? group[0]!
          : keepOnly(
              await text(taskMessages({ tag: 'notes', body: group.join('\n\n') }, CONDENSE_TASK), answer),
              (n) => known.has(n),
            ),
      );
    parts = next;
  }
  const out = await text(
    taskMessages(
      { tag: 'notes', body: parts.map((p, i) => `Part ${i + 1}:\n${p}`).join('\n\n') },
      templateTask(input.instructions, input.language, true),
    ),
    answer,
  );
  input.onStage?.('merging', 100);
  // The final text keeps only citations the notes made.
  return citeSegments(out, starts, (n) => known.has(n)).markdown;
}

/** Notes with the citations `keep` refuses taken out (numbers stay numbers). */
function keepOnly(text: string, keep: (n: number) => boolean): string {
  return text.replace(/\[\s*(?:segments?\s*)?(\d+(?:\s*[,;]\s*\d+)*)\s*\]/gi, (_m, inner: string) => {
    const kept = inner
      .split(/[,;]/)
      .map((x) => Number(x.trim()))
      .filter(keep);
    return kept.length ? `[${kept.join(', ')}]` : '';
  });
}

/** Consecutive groups of parts that fit `budget`, each of at least two parts so rounds end. */
function groupsThatFit(parts: readonly string[], budget: number): string[][] {
  const groups: string[][] = [[]];
  let used = 0;
  for (const p of parts) {
    const cost = estimateTokens(p);
    if (groups.at(-1)!.length > 1 && used + cost > budget) {
      groups.push([]);
      used = 0;
    }
    groups.at(-1)!.push(p);
    used += cost;
  }
  return groups;
}
