import { Hono } from 'hono';
import type { AppEnv } from '../app';
import { ApiError, ErrorCode, ok } from '../http/envelope';
import { sessionToken } from '../http/cookies';
import { userForToken } from '../modules/auth/session-user';

/** /common-api/v1: account-level calls of spec §7. */
export function commonApi() {
  const api = new Hono<AppEnv>();

  api.get('/user', async (c) => {
    const user = await userForToken(c.get('deps').db, sessionToken(c));
    if (!user) throw new ApiError(ErrorCode.UNAUTHORIZED, 'errors.api.unauthorized');
    return c.json(
      ok({
        user: {
          id: user.id,
          email: user.email,
          name: user.name,
          avatar: user.avatar,
          rank_name: user.rankName,
          language: user.language,
          email_verified: user.emailVerified,
          created_at: user.createdAt.toISOString(),
        },
        permissions_quota: {},
        rank: { name: user.rankName },
      }),
    );
  });

  return api;
}
