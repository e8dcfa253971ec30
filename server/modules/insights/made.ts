// Made outputs as other domains use them (exports, share links): only finished ones.
import { and, eq } from 'drizzle-orm';
import type { Chapter, Summary } from '../../../common/insights';
import type { DbOrTx } from '../../db/client';
import { insights } from '../../db/schema';

async function made(db: DbOrTx, transcriptId: string, kind: 'summary' | 'chapters') {
  const [row] = await db
    .select({ content: insights.content })
    .from(insights)
    .where(and(eq(insights.transcriptId, transcriptId), eq(insights.kind, kind), eq(insights.variant, '')));
  return row?.content ?? null;
}

/** The transcript's chapters when they were made (empty otherwise). */
export async function madeChapters(db: DbOrTx, transcriptId: string): Promise<Chapter[]> {
  const content = await made(db, transcriptId, 'chapters');
  return content && 'chapters' in content ? content.chapters : [];
}

/** The transcript's summary when it was made. */
export async function madeSummary(db: DbOrTx, transcriptId: string): Promise<Summary | null> {
  const content = await made(db, transcriptId, 'summary');
  return content && 'summary' in content ? content.summary : null;
}
