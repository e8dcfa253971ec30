import { eq } from 'drizzle-orm';
import {
  EXPORT_FORMATS,
  NULLABLE_LIMITS,
  NUMERIC_LIMITS,
  standardRank,
  type ExportFormat,
  type RankLimits,
} from '../../../common/ranks';
import type { Db } from '../../db/client';
import { users, type User } from '../../db/schema';
import { recomputeRank } from './rank';

// Operator commands (scripts/admin.ts): give an account a rank or its own limits by hand, for
// Enterprise deals, support gestures, or a deployment without Stripe.

export class AdminError extends Error {}

async function userByEmail(db: Db, email: string): Promise<User> {
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  if (!user) throw new AdminError(`No account with the e-mail ${email}`);
  return user;
}

/**
 * Grants a rank (one of the six, or any other name for a customised account), optionally until a
 * date; 'none' removes the grant and the subscription's rank (or Free) applies again.
 */
export async function grantRank(
  db: Db,
  email: string,
  rank: string,
  until: Date | null,
  now: Date,
): Promise<User> {
  const user = await userByEmail(db, email);
  const name = rank.trim();
  if (!/^[\w .-]{1,40}$/.test(name))
    throw new AdminError('A rank name is 1-40 letters, digits, spaces, dots or dashes');
  if (until && until <= now) throw new AdminError('--until must be in the future');
  const clear = name.toLowerCase() === 'none';
  await db
    .update(users)
    .set({
      grantedRank: clear ? null : (standardRank(name) ?? name),
      grantedUntil: clear ? null : until,
      updatedAt: now,
    })
    .where(eq(users.id, user.id));
  return (await recomputeRank(db, user.id, now))!;
}

/** Parses `key=value` pairs into per-account limits; 'unlimited' where the table allows it. */
export function parseQuota(pairs: string[]): Partial<RankLimits> {
  const out: Partial<RankLimits> = {};
  for (const pair of pairs) {
    const [key, value] = pair.split('=', 2) as [string, string | undefined];
    if (value === undefined || value === '') throw new AdminError(`Expected key=value, got "${pair}"`);
    if (key === 'export_formats') {
      const formats = value.split(',').map((f) => f.trim().toLowerCase());
      const bad = formats.filter((f) => !(EXPORT_FORMATS as readonly string[]).includes(f));
      if (bad.length)
        throw new AdminError(
          `Unknown export formats: ${bad.join(', ')} (known: ${EXPORT_FORMATS.join(', ')})`,
        );
      out.export_formats = formats as ExportFormat[];
    } else if ((NUMERIC_LIMITS as readonly string[]).includes(key)) {
      const k = key as (typeof NUMERIC_LIMITS)[number];
      if (value === 'unlimited') {
        if (!NULLABLE_LIMITS.includes(k)) throw new AdminError(`${k} cannot be unlimited`);
        (out as Record<string, number | null>)[k] = null;
      } else {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0) throw new AdminError(`${k} must be a whole number ≥ 0`);
        (out as Record<string, number | null>)[k] = n;
      }
    } else {
      throw new AdminError(
        `Unknown limit "${key}" (known: ${[...NUMERIC_LIMITS, 'export_formats'].join(', ')})`,
      );
    }
  }
  return out;
}

/**
 * Sets per-account limits, merged over the ones already set ('reset' clears them). They apply to
 * Enterprise and customised ranks; on the five table ranks the table wins, so say so.
 */
export async function setQuota(db: Db, email: string, changes: Partial<RankLimits> | 'reset', now: Date) {
  const user = await userByEmail(db, email);
  const customLimits = changes === 'reset' ? null : { ...(user.customLimits ?? {}), ...changes };
  const [updated] = await db
    .update(users)
    .set({ customLimits, updatedAt: now })
    .where(eq(users.id, user.id))
    .returning();
  const rank = standardRank(updated!.rankName);
  const applies = rank === null || rank === 'Enterprise';
  return { user: updated!, applies };
}
