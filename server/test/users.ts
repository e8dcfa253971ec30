import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { users, type User } from '../db/schema';
import { resolveActor, type Actor } from '../modules/workspaces/actor';
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

/** The actor of a session of `user` in its personal workspace (or `workspaceId`, when a member). */
export async function sessionActor(db: Db, user: User, workspaceId?: string): Promise<Actor> {
  const actor = await resolveActor(db, { user }, { header: workspaceId ?? null });
  if (!actor) throw new Error('no actor');
  return actor;
}
