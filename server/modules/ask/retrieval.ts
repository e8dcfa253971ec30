// What of the transcripts a question's prompt holds. Everything when it fits the model's context;
// else the segments the question's words are found in, by the same full-text matching as the
// search feature ('simple' configuration: word prefixes; Chinese and Japanese anywhere in the
// text), each with its neighbours, the rarest words first, until the budget is spent.
import { sql } from 'drizzle-orm';
import { matchesAnywhere } from '../../../common/search-snippet';
import type { Segment } from '../../../common/segments';
import type { Db } from '../../db/client';
import { transcripts } from '../../db/schema';
import { transcriptLines, type Line } from '../insights/transcript-lines';

export interface Doc {
  id: string;
  name: string;
  segments: readonly Segment[];
}

export interface Picked {
  doc: Doc;
  /** The lines kept, in transcript order. */
  lines: Line[];
}

/** Segments either side of a match that go with it: a sentence rarely says everything alone. */
export const NEIGHBOURS = 2;
/** Words of a question looked for (a question longer than this keeps its first ones). */
const MAX_TERMS = 24;

/**
 * A question's words as the search splits them: letters and digits, lowercased, once each. A run
 * of Chinese or Japanese (written without spaces: a whole question is one run) becomes its
 * overlapping pairs of characters, so its words are found inside the transcript's runs; pairs
 * common in the text (particles) weigh little (pickLines).
 */
export function questionTerms(text: string): string[] {
  const words = text
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .flatMap((w) => {
      if (!matchesAnywhere(w)) return w.length > 1 ? [w] : [];
      const chars = [...w];
      if (chars.length <= 2) return [w];
      return chars.slice(0, -1).map((c, i) => c + chars[i + 1]!);
    });
  return [...new Set(words)].slice(0, MAX_TERMS);
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/**
 * The segments (of the given transcripts) holding at least one of the terms, with a bit per
 * term that matched. The database does the matching: a word prefix against the segment's
 * tsvector, or, for a term in a script without spaces, the text containing it.
 */
export async function matchingSegments(
  db: Db,
  ids: readonly string[],
  terms: readonly string[],
): Promise<{ id: string; index: number; hits: number }[]> {
  if (ids.length === 0 || terms.length === 0) return [];
  const conds = terms.map((t) =>
    matchesAnywhere(t) ? sql`s.txt like ${likePattern(t)}` : sql`s.v @@ to_tsquery('simple', ${`${t}:*`})`,
  );
  const bits = sql.join(
    conds.map((c, i) => sql`(case when ${c} then ${2 ** i} else 0 end)`),
    sql` + `,
  );
  const result = await db.execute(sql`
    select s.tid, s.idx, (${bits})::int as hits
    from (
      select t.id as tid, (e.ord - 1)::int as idx, e.seg->>'text' as txt,
        to_tsvector('simple', e.seg->>'text') as v
      from ${transcripts} t
      cross join lateral jsonb_array_elements(t.segments) with ordinality as e(seg, ord)
      where t.id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})
    ) s
    where ${sql.join(conds, sql` or `)}`);
  const rows = (result as unknown as { rows: { tid: string; idx: number; hits: number }[] }).rows;
  return rows.map((r) => ({ id: r.tid, index: Number(r.idx), hits: Number(r.hits) }));
}

const total = (lines: readonly Line[]) => lines.reduce((n, l) => n + l.tokens, 0);

/**
 * The lines the prompt holds, within `budget` estimated tokens. `terms` are the question's words;
 * `earlier` those of the previous question, counted half (a follow-up often names little itself).
 */
export async function pickLines(
  db: Db,
  docs: readonly Doc[],
  budget: number,
  terms: readonly string[],
  earlier: readonly string[] = [],
): Promise<{ picked: Picked[]; whole: boolean }> {
  const all = docs.map((doc) => ({ doc, lines: transcriptLines(doc.segments, { clock: 'every' }) }));
  if (all.reduce((n, d) => n + total(d.lines), 0) <= budget) return { picked: all, whole: true };

  const words = [...terms, ...earlier.filter((w) => !terms.includes(w))];
  const weight = words.map((w) => (terms.includes(w) ? 1 : 0.5));
  const rows = await matchingSegments(
    db,
    docs.map((d) => d.id),
    words,
  );
  // Rarer words weigh more (inverse document frequency over all the segments read).
  const segmentsRead = all.reduce((n, d) => n + d.lines.length, 0);
  const idf = words.map((_, i) => {
    const df = rows.filter((r) => r.hits & (2 ** i)).length;
    return df === 0 ? 0 : Math.log(1 + segmentsRead / df) * weight[i]!;
  });
  const score = (hits: number) => idf.reduce((s, w, i) => (hits & (2 ** i) ? s + w : s), 0);
  const ranked = rows
    .map((r) => ({ ...r, score: score(r.hits) }))
    .sort((a, b) => b.score - a.score || a.index - b.index);

  const byDoc = new Map(all.map((d) => [d.doc.id, new Map(d.lines.map((l) => [l.index, l]))]));
  const chosen = new Map<string, Map<number, Line>>(all.map((d) => [d.doc.id, new Map()]));
  let used = 0;
  const take = (id: string, line: Line) => {
    const mine = chosen.get(id)!;
    if (mine.has(line.index)) return true;
    if (used + line.tokens > budget) return false;
    mine.set(line.index, line);
    used += line.tokens;
    return true;
  };
  outer: for (const r of ranked) {
    const lines = byDoc.get(r.id);
    const hit = lines?.get(r.index);
    if (!lines || !hit) continue;
    if (!take(r.id, hit)) break;
    for (let d = 1; d <= NEIGHBOURS; d++)
      for (const n of [r.index - d, r.index + d]) {
        const line = lines.get(n);
        if (line && !take(r.id, line)) break outer;
      }
  }
  // Nothing matched: the opening of each transcript, as much as fits.
  if (used === 0) for (const d of all) for (const line of d.lines) if (!take(d.doc.id, line)) break;

  return {
    whole: false,
    picked: all
      .map((d) => ({
        doc: d.doc,
        lines: [...chosen.get(d.doc.id)!.values()].sort((a, b) => a.index - b.index),
      }))
      .filter((p) => p.lines.length > 0),
  };
}
