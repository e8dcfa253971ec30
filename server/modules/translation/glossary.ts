import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { glossaryTerms } from '../../db/schema';
import type { Actor } from '../workspaces/actor';
import { assertCan } from '../workspaces/access';
import type { GlossaryEntry } from './batches';

/** Most terms one workspace's glossary holds. */
export const MAX_GLOSSARY_TERMS = 200;

export async function glossaryOf(db: DbOrTx, workspaceId: string): Promise<GlossaryEntry[]> {
  return db
    .select({ source: glossaryTerms.source, target: glossaryTerms.target })
    .from(glossaryTerms)
    .where(eq(glossaryTerms.workspaceId, workspaceId))
    .orderBy(asc(glossaryTerms.source));
}

/** Replaces the current workspace's glossary (editors and up). */
export async function setGlossary(
  db: DbOrTx,
  actor: Actor,
  terms: GlossaryEntry[],
): Promise<GlossaryEntry[]> {
  assertCan(actor.role, 'transcript.edit');
  const unique = new Map(terms.map((t) => [t.source, t]));
  await db.transaction(async (tx) => {
    await tx.delete(glossaryTerms).where(eq(glossaryTerms.workspaceId, actor.workspace.id));
    if (unique.size)
      await tx.insert(glossaryTerms).values(
        [...unique.values()].map((t) => ({
          workspaceId: actor.workspace.id,
          userId: actor.user.id,
          source: t.source,
          target: t.target,
        })),
      );
  });
  return glossaryOf(db, actor.workspace.id);
}
