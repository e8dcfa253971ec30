import { and, desc, eq, gt } from 'drizzle-orm';
import type { ActivityKind } from '../../../common/record-states';
import type { DbOrTx } from '../../db/client';
import { transcriptActivity, users } from '../../db/schema';

/** Edits by one member closer together than this are one line of the activity, not one each. */
const EDITS_MERGE_MS = 10 * 60 * 1000;

export interface ActivityEntry {
  workspaceId: string;
  transcriptId: string;
  userId: string | null;
  kind: ActivityKind;
  detail?: Record<string, string | number | boolean>;
}

/**
 * Records what a member did to a transcript. A run of edits by the same member is kept as one
 * entry whose time moves forward, so a page of typing does not bury everything else.
 */
export async function recordActivity(db: DbOrTx, entry: ActivityEntry, now: Date): Promise<void> {
  if (entry.kind === 'edited' && entry.userId) {
    const [recent] = await db
      .select({ id: transcriptActivity.id })
      .from(transcriptActivity)
      .where(
        and(
          eq(transcriptActivity.transcriptId, entry.transcriptId),
          eq(transcriptActivity.userId, entry.userId),
          eq(transcriptActivity.kind, 'edited'),
          gt(transcriptActivity.createdAt, new Date(now.getTime() - EDITS_MERGE_MS)),
        ),
      )
      .orderBy(desc(transcriptActivity.createdAt))
      .limit(1);
    if (recent) {
      await db
        .update(transcriptActivity)
        .set({ createdAt: now, detail: entry.detail ?? {} })
        .where(eq(transcriptActivity.id, recent.id));
      return;
    }
  }
  await db.insert(transcriptActivity).values({ ...entry, detail: entry.detail ?? {}, createdAt: now });
}

/** The newest entries first, with who did them (null: an account since deleted). */
export async function listActivity(db: DbOrTx, transcriptId: string, limit = 100) {
  const rows = await db
    .select({
      id: transcriptActivity.id,
      kind: transcriptActivity.kind,
      detail: transcriptActivity.detail,
      createdAt: transcriptActivity.createdAt,
      userId: transcriptActivity.userId,
      name: users.name,
      email: users.email,
    })
    .from(transcriptActivity)
    .leftJoin(users, eq(users.id, transcriptActivity.userId))
    .where(eq(transcriptActivity.transcriptId, transcriptId))
    .orderBy(desc(transcriptActivity.createdAt), desc(transcriptActivity.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    detail: r.detail,
    at: r.createdAt.toISOString(),
    by: r.userId ? { id: r.userId, name: r.name || r.email } : null,
  }));
}

/** Who edited the transcript last (its name, or its address when it has none), for the page. */
export async function lastEdit(
  db: DbOrTx,
  row: { editedBy: string | null; editedAt: Date | null },
): Promise<{ by: { id: string; name: string } | null; at: string } | null> {
  if (!row.editedAt) return null;
  if (!row.editedBy) return { by: null, at: row.editedAt.toISOString() };
  const [who] = await db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, row.editedBy));
  return {
    by: who ? { id: row.editedBy, name: who.name || who.email } : null,
    at: row.editedAt.toISOString(),
  };
}
