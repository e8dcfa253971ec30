// The model's answer as stored: citations checked, never trusted. A line number the prompt did not
// hold is dropped, a statement left without one is dropped (it rests on nothing the user can
// check), and an answer with no statement left — or the model's "not in the transcript" marker —
// is the "could not find" answer.
import type { AskCitation } from '../../../common/ask';
import { NOT_FOUND_MARKER, type ModelAnswer, type Ref } from './prompt';

export interface StoredAnswer {
  content: string;
  citations: AskCitation[];
  found: boolean;
}

/** A statement's text: one line, without bracketed numbers of its own (ours mark citations). */
const clean = (text: string) =>
  text
    .replace(/\[\s*\d+\s*\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export function toAnswer(out: ModelAnswer, refs: ReadonlyMap<number, Ref>): StoredAnswer {
  const citations: AskCitation[] = [];
  const keyOf = (r: Ref) => `${r.transcriptId}:${r.segment}`;
  const numbers = new Map<string, number>();
  const sentences: string[] = [];
  for (const statement of out.answer) {
    if (statement.text.includes(NOT_FOUND_MARKER)) continue;
    const text = clean(statement.text);
    const marks: number[] = [];
    for (const n of statement.segments) {
      const ref = Number.isInteger(n) ? refs.get(n) : undefined;
      if (!ref) continue;
      const key = keyOf(ref);
      if (!numbers.has(key)) {
        citations.push({ transcript_id: ref.transcriptId, segment: ref.segment, start: ref.start });
        numbers.set(key, citations.length);
      }
      const k = numbers.get(key)!;
      if (!marks.includes(k)) marks.push(k);
    }
    if (!text || marks.length === 0) continue;
    sentences.push(`${text} ${marks.map((k) => `[${k}]`).join('')}`);
  }
  if (sentences.length === 0) return { content: '', citations: [], found: false };
  // Citations of dropped statements were never marked: keep only the marked ones, renumbered.
  const used = [...new Set(sentences.flatMap((s) => [...s.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]))))];
  const renumber = new Map(used.map((k, i) => [k, i + 1]));
  return {
    content: sentences.join(' ').replace(/\[(\d+)\]/g, (_, k: string) => `[${renumber.get(Number(k))}]`),
    citations: used.map((k) => citations[k - 1]!),
    found: true,
  };
}
