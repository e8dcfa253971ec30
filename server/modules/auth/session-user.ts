import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions, users, type User } from '../../db/schema';
import { hashToken } from './tokens';
import { withCurrentRank } from '../billing/rank';

/**
 * Every signed-in request asks this: built once per database handle (a named statement, so
 * PostgreSQL parses and plans it once per connection and drizzle skips rebuilding the SQL).
 */
const prepared = new WeakMap<Db, ReturnType<typeof prepareLookup>>();
function prepareLookup(db: Db) {
  return db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('hash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare('session_user');
}

/** The login state of a request: the user behind a live session token, or null. */
export async function userForToken(
  db: Db,
  token: string | null | undefined,
  now = new Date(),
): Promise<User | null> {
  if (!token || token.length > 200) return null;
  let lookup = prepared.get(db);
  if (!lookup) prepared.set(db, (lookup = prepareLookup(db)));
  const rows = await lookup.execute({ hash: hashToken(token), now: now.toISOString() });
  const user = rows[0]?.user ?? null;
  return user && withCurrentRank(db, user, now);
}
