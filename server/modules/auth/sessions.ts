import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { SESSION_MAX_AGE } from '../../../common/cookies';
import { hashToken, newToken } from './tokens';

export interface SessionMeta {
  userAgent?: string | null;
  ip?: string | null;
}

export async function createSession(db: Db, userId: string, meta: SessionMeta, now: Date): Promise<string> {
  const token = newToken();
  await db.insert(sessions).values({
    userId,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + SESSION_MAX_AGE * 1000),
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
    ip: meta.ip ?? null,
  });
  return token;
}

/**
 * Whether the account of this address ever logged in from this IP (a session was started from
 * it). One query whether or not the account exists, so its timing tells nothing.
 */
export async function loggedInFrom(db: Db, email: string, ip: string): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(users.email, email.toLowerCase()), eq(sessions.ip, ip)))
    .limit(1);
  return !!row;
}

export async function revokeSession(db: Db, token: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt)));
}

/** Revokes every live session of the user except the one holding `keepToken`. */
export async function revokeOtherSessions(
  db: Db,
  userId: string,
  keepToken: string | null,
  now: Date,
): Promise<void> {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (keepToken) conditions.push(ne(sessions.tokenHash, hashToken(keepToken)));
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(...conditions));
}
