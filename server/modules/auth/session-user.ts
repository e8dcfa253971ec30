import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions, users, type User } from '../../db/schema';
import { hashToken } from './tokens';
import { withCurrentRank } from '../billing/rank';

/** The login state of a request: the user behind a live session token, or null. */
export async function userForToken(
  db: Db,
  token: string | null | undefined,
  now = new Date(),
): Promise<User | null> {
  if (!token || token.length > 200) return null;
  const rows = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)),
    )
    .limit(1);
  const user = rows[0]?.user ?? null;
  return user && withCurrentRank(db, user, now);
}
