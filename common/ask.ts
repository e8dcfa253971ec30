// Questions about a transcript (or the transcripts of a folder) and the answers the language model
// gives, as stored and as the API and the page read them (docs/decisions/0035-ask.md). Pure.
import { z } from 'zod';
import type { AskRole, InsightStatus } from './record-states';

export type { AskRole };

/** The longest question taken (characters). */
export const QUESTION_MAX = 1000;

export const askRequestSchema = z
  .object({
    question: z.string().trim().min(1).max(QUESTION_MAX),
  })
  .strict();
export type AskRequest = z.infer<typeof askRequestSchema>;

/** A moment an answer rests on: the transcript, the segment's index and its start (seconds). */
export const askCitationSchema = z.object({
  transcript_id: z.string(),
  segment: z.number().int().min(0),
  start: z.number().min(0),
});
export type AskCitation = z.infer<typeof askCitationSchema>;

/** One message of a conversation, as the API answers it. */
export interface AskMessageJson {
  id: string;
  role: AskRole;
  /**
   * The question, or the answer's text. In an answer, `[k]` (k from 1) marks where citation k of
   * `citations` belongs; the model's own bracketed numbers never reach it.
   */
  content: string;
  citations: AskCitation[];
  /** An answer: queued, being written, done or failed. A question is always done. */
  status: InsightStatus;
  /** An answer: false when the material does not say (the page shows "could not find"). */
  found: boolean | null;
  error_code: string | null;
  created_at: number;
}

export interface ConversationJson {
  /** What the conversation is about: one transcript, or the transcripts of a folder. */
  scope: { kind: 'transcript' | 'folder'; id: string };
  messages: AskMessageJson[];
  /** The transcripts the scope covers (names for citations into another transcript of a folder). */
  transcripts: { id: string; name: string }[];
  /** A transcript's folder, which the caller may also ask about (null: none, or another scope). */
  folder: { id: string; name: string } | null;
  /** The AI actions of the workspace this month (one per question). */
  usage: { used: number; limit: number | null };
}

/** Live events of an answer being written. */
export type AskEvent =
  | { type: 'ask'; id: string; status: InsightStatus }
  /** `at`: characters of the phase written before this piece (common/streamed-text.ts). */
  | { type: 'ask-token'; id: string; phase: number; at: number; text: string };

/** An answer's text cut into plain pieces and citation marks, in order. */
export function answerPieces(
  content: string,
  citations: readonly AskCitation[],
): ({ text: string } | { cite: AskCitation })[] {
  const out: ({ text: string } | { cite: AskCitation })[] = [];
  let last = 0;
  for (const m of content.matchAll(/\[(\d+)\]/g)) {
    const cite = citations[Number(m[1]) - 1];
    if (!cite) continue;
    if (m.index > last) out.push({ text: content.slice(last, m.index) });
    out.push({ cite });
    last = m.index + m[0].length;
  }
  if (last < content.length) out.push({ text: content.slice(last) });
  return out;
}

/** An answer's text without its citation marks (what follow-up questions see of it). */
export const answerText = (content: string): string =>
  content
    .replace(/\s*\[\d+\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
