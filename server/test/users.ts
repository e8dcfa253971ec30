import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { RankLimits } from '../../common/ranks';
import { createSession } from '../modules/auth/sessions';

/** A verified user with a live session, made directly in the database. */
export async function signedInUser(
  db: Db,
  opts: { rankName?: string; customLimits?: Partial<RankLimits> } = {},
) {
  const [user] = await db
    .insert(users)
    .values({
      email: `u-${randomUUID()}@example.test`,
      emailVerified: true,
      rankName: opts.rankName ?? 'Free',
      customLimits: opts.customLimits ?? null,
    })
    .returning();
  const token = await createSession(db, user!.id, {}, new Date());
  return { user: user!, token, headers: { cookie: `token=${token}`, origin: 'http://localhost' } };
}
