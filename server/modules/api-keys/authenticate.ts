import type { Db } from '../../db/client';
import type { User } from '../../db/schema';
import { userForToken } from '../auth/session-user';
import { apiKeyMayCall, keyNotAllowed, type KeyRateLimiter } from './access';
import { looksLikeApiKey, userForApiKey } from './keys';

export interface RequestAuth {
  user: User;
  /** Set when the caller used an API key: its rate-limit figures for the response headers. */
  rate?: { limit: number; remaining: number };
  /** The key, when one was used: it acts in its own workspace only. */
  key?: { id: string; workspaceId: string };
}

/**
 * A request's token and where it came from. An API key counts only from `Authorization: Bearer`:
 * a cookie can be planted by a sibling subdomain, and a key planted that way would send the
 * victim's uploads into the planter's account.
 */
export interface Credential {
  token: string;
  from: 'bearer' | 'cookie';
}

/**
 * The user behind a request's token: a session (cookie or bearer) or an API key (bearer only), which must be
 * allowed on this method and path and within its minute's allowance (throws 403 / 429).
 */
export async function authenticate(
  deps: { db: Db; keyLimiter: KeyRateLimiter },
  credential: Credential | null,
  request: { method: string; path: string },
): Promise<RequestAuth | null> {
  const token = credential?.token ?? null;
  if (credential?.from === 'bearer' && looksLikeApiKey(token)) {
    const found = await userForApiKey(deps.db, token);
    if (found) {
      if (!apiKeyMayCall(found.key.scope, request.method, request.path)) throw keyNotAllowed();
      return {
        user: found.user,
        rate: await deps.keyLimiter.consume(found.key, found.user),
        key: { id: found.key.id, workspaceId: found.key.workspaceId },
      };
    }
  }
  const user = await userForToken(deps.db, token);
  return user ? { user } : null;
}
