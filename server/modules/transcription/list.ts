import { and, asc, count, desc, eq, isNull, type SQL } from 'drizzle-orm';
import { transcripts } from '../../db/schema';
import { assertCan } from '../workspaces/access';
import type { Actor } from '../workspaces/actor';
import type { TranscriptionDeps } from './deps';
import { currentTranscripts, ownFolder } from './ownership';
import { searchCondition, searchSnippets } from './search';
import { summaryColumns } from './summary-columns';

export interface ListQuery {
  folderId?: string | null;
  /** 'root' lists transcripts outside any folder. */
  root?: boolean;
  q?: string;
  sort: 'created_at' | 'name' | 'duration';
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** The current workspace's transcripts (the actor's membership there was read with the request). */
export async function listTranscripts(deps: TranscriptionDeps, actor: Actor, query: ListQuery) {
  assertCan(actor.role, 'transcript.read');
  const conditions: SQL[] = [currentTranscripts(actor)];
  if (query.folderId) {
    await ownFolder(deps, actor, query.folderId);
    conditions.push(eq(transcripts.folderId, query.folderId));
  } else if (query.root) {
    conditions.push(isNull(transcripts.folderId));
  }
  const q = query.q?.trim();
  if (q) conditions.push(searchCondition(q));
  const where = and(...conditions);
  const column =
    query.sort === 'name'
      ? transcripts.name
      : query.sort === 'duration'
        ? transcripts.durationSec
        : transcripts.createdAt;
  const direction = query.order === 'asc' ? asc : desc;
  const [items, [total]] = await Promise.all([
    deps.db
      .select(summaryColumns)
      .from(transcripts)
      .where(where)
      .orderBy(direction(column), desc(transcripts.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    deps.db.select({ n: count() }).from(transcripts).where(where),
  ]);
  // A search shows, per result, where its text matched (null: by its name only).
  const snippets = q
    ? await searchSnippets(
        deps.db,
        actor.workspace.id,
        items.map((i) => i.id),
        q,
      )
    : null;
  return {
    items: snippets ? items.map((i) => ({ ...i, snippet: snippets.get(i.id) ?? null })) : items,
    total: total?.n ?? 0,
    page: query.page,
    page_size: query.pageSize,
  };
}
