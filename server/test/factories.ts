// Rows made directly in the database for tests whose subject is something else. Each takes the
// columns a test cares about and fills in the rest.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { affiliateCodes, affiliates, folders, shareLinks, transcripts, users } from '../db/schema';
import { newShareId } from '../modules/shares/shares';

type Insert<T extends { $inferInsert: unknown }> = Partial<T['$inferInsert']>;

/** A transcript of `userId`: an upload, queued unless told otherwise. */
export async function newTranscript(db: Db, userId: string, values: Insert<typeof transcripts> = {}) {
  const [row] = await db
    .insert(transcripts)
    .values({ userId, name: 't', source: 'upload', status: 'queued', ...values })
    .returning();
  return row!;
}

/** A folder of `userId`. */
export async function newFolder(db: Db, userId: string, values: Insert<typeof folders> = {}) {
  const [row] = await db
    .insert(folders)
    .values({ userId, name: `Folder ${randomUUID().slice(0, 8)}`, ...values })
    .returning();
  return row!;
}

/** A share link to `transcript` by its owner: active, text only, unless told otherwise. */
export async function newShare(
  db: Db,
  transcript: { id: string; userId: string | null },
  values: Insert<typeof shareLinks> = {},
) {
  const [row] = await db
    .insert(shareLinks)
    .values({ id: newShareId(), transcriptId: transcript.id, userId: transcript.userId, ...values })
    .returning();
  return row!;
}

/** A user who joined the affiliate programme, with one referral code. */
export async function newAffiliate(db: Db, opts: { email?: string; code?: string } = {}) {
  const [user] = await db
    .insert(users)
    .values({ email: opts.email ?? `partner-${randomUUID()}@example.test` })
    .returning();
  await db.insert(affiliates).values({ userId: user!.id, termsAcceptedAt: new Date() });
  const code = opts.code ?? randomUUID().replace(/-/g, '').slice(0, 8).toUpperCase();
  await db.insert(affiliateCodes).values({ code, userId: user!.id });
  return { user: user!, code };
}
