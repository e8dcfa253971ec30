import { and, ilike, like as likeOp, or, sql, type SQL } from 'drizzle-orm';
import { matchesAnywhere, searchTerms, snippetOf, type SearchSnippet } from '../../../common/search-snippet';
import type { Db } from '../../db/client';
import { transcripts } from '../../db/schema';

/** A term with no letter case (as Chinese and Japanese have none): LIKE finds it as ILIKE would. */
const caseless = (term: string) => term.toUpperCase() === term && term.toLowerCase() === term;

/** `%text%` for (I)LIKE, with their own characters taken literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/**
 * Full-text over name and text ('simple' config: no stemming, works for every language): every
 * term as a word prefix, or — for Chinese and Japanese, written without spaces, where the index
 * holds a whole run of text as one word — anywhere in the text. Or the name contains the query.
 */
export function searchCondition(q: string): SQL {
  const terms = searchTerms(q);
  const nameMatch = ilike(transcripts.name, likePattern(q));
  if (terms.length === 0) return nameMatch;
  const prefixes = terms.filter((t) => !matchesAnywhere(t));
  const parts: SQL[] = [];
  if (prefixes.length > 0) {
    const tsquery = prefixes.map((w) => `${w}:*`).join(' & ');
    parts.push(sql`${transcripts.search} @@ to_tsquery('simple', ${tsquery})`);
  }
  // No index serves these: a scan of the account's texts (bench:list measures it), with LIKE
  // where the term has no letter case (Han, kana), a few times cheaper than ILIKE.
  for (const term of terms.filter(matchesAnywhere)) {
    const like = caseless(term) ? likeOp : ilike;
    parts.push(
      or(like(transcripts.plainText, likePattern(term)), ilike(transcripts.name, likePattern(term)))!,
    );
  }
  return or(and(...parts), nameMatch)!;
}

/** Segments looked at per transcript: the first few that the database finds matching. */
const CANDIDATES = 3;

/**
 * For each of the given transcripts of the workspace whose text matches the query: the segment text
 * around the first match (common/search-snippet). A transcript found by its name only has none.
 * The database picks the candidate segments (a cheap ILIKE first, then the same word-prefix
 * rule as the search), so only a few short texts per transcript leave it.
 */
export async function searchSnippets(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
  q: string,
): Promise<Map<string, SearchSnippet>> {
  const terms = searchTerms(q);
  const found = new Map<string, SearchSnippet>();
  if (ids.length === 0 || terms.length === 0) return found;
  const text = sql`e.seg->>'text'`;
  const prefixes = terms.filter((t) => !matchesAnywhere(t));
  const anyTerm = sql.join(
    terms.map((t) =>
      caseless(t) ? sql`${text} like ${likePattern(t)}` : sql`${text} ilike ${likePattern(t)}`,
    ),
    sql` or `,
  );
  const matches =
    prefixes.length === terms.length
      ? sql`(${anyTerm}) and to_tsvector('simple', ${text}) @@ to_tsquery('simple', ${prefixes.map((w) => `${w}:*`).join(' | ')})`
      : sql`(${anyTerm})`;
  const result = await db.execute(sql`
    select t.id, s.idx, s.start, s.text
    from ${transcripts} t
    cross join lateral (
      select (e.ord - 1)::int as idx, (e.seg->>'start')::float8 as start, ${text} as text
      from jsonb_array_elements(t.segments) with ordinality as e(seg, ord)
      where ${matches}
      order by e.ord
      limit ${CANDIDATES}
    ) s
    where t.workspace_id = ${workspaceId} and t.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})
    order by t.id, s.idx`);
  // Both drivers (PGlite, node-postgres) answer { rows }.
  const rows = (result as unknown as { rows: { id: string; idx: number; start: number; text: string }[] })
    .rows;
  for (const row of rows) {
    if (found.has(row.id)) continue;
    const snippet = snippetOf({ index: Number(row.idx), start: Number(row.start), text: row.text }, terms);
    if (snippet) found.set(row.id, snippet);
  }
  return found;
}
