import { and, eq, inArray } from 'drizzle-orm';
import { RANKS } from '../../../common/ranks';
import type { Db, DbOrTx } from '../../db/client';
import { subscriptions, users, type User } from '../../db/schema';

/** Subscription states in which the plan is in force (past_due: Stripe is still retrying). */
export const LIVE_STATUSES = ['active', 'trialing', 'past_due'];

/**
 * Sets users.rank_name (and the usage anchor) from what the account holds: an admin grant that
 * has not ended wins; else the highest rank among live subscriptions; else Free. Called after
 * every change to either, so the stored rank never depends on the order events arrived in.
 */
export async function recomputeRank(db: DbOrTx, userId: string, now: Date): Promise<User | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) return null;
  const grantLive = user.grantedRank && (!user.grantedUntil || user.grantedUntil > now);
  let rankName = 'Free';
  let anchor: Date | null = null;
  if (grantLive) {
    rankName = user.grantedRank!;
  } else {
    const subs = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, LIVE_STATUSES)));
    const best = subs
      .filter((s) => s.rank)
      .sort((a, b) => RANKS.indexOf(b.rank as never) - RANKS.indexOf(a.rank as never))[0];
    if (best) {
      rankName = best.rank!;
      anchor = best.currentPeriodStart;
    }
  }
  const changes: Partial<User> = {};
  if (rankName !== user.rankName) Object.assign(changes, { rankName, rankChangedAt: now });
  if ((anchor?.getTime() ?? null) !== (user.periodAnchor?.getTime() ?? null)) changes.periodAnchor = anchor;
  if (!grantLive && user.grantedRank) Object.assign(changes, { grantedRank: null, grantedUntil: null });
  if (Object.keys(changes).length === 0) return user;
  const [updated] = await db
    .update(users)
    .set({ ...changes, updatedAt: now })
    .where(eq(users.id, userId))
    .returning();
  return updated ?? null;
}

/** A session's user whose admin grant has run out gets its fallback rank before anything reads it. */
export async function withCurrentRank(db: Db, user: User, now: Date): Promise<User> {
  if (!user.grantedUntil || user.grantedUntil > now) return user;
  return (await recomputeRank(db, user.id, now)) ?? user;
}
