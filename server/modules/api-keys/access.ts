import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { ApiKeyCode } from '../../../common/error-codes';
import { limitsFor } from '../../../common/ranks';
import { ApiError } from '../errors';
import type { ApiKey, User } from '../../db/schema';

// What an API key may call, and how often (docs/decisions/0018-api-keys-webhooks.md).

/** The account, billing and key management answer to a signed-in person only, never to a key. */
const PERSON_ONLY = ['/common-api/', '/self-api/v1/billing', '/self-api/v1/api-keys'];
/** A webhook's signing secret is revealed to a person who types the password, never to a key. */
const PERSON_ONLY_PATHS = [/^\/self-api\/v1\/webhooks\/[^/]+\/secret\/?$/];
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function apiKeyMayCall(scope: ApiKey['scope'], method: string, path: string): boolean {
  if (
    PERSON_ONLY.some(
      (p) => path === p.replace(/\/$/, '') || path.startsWith(p.endsWith('/') ? p : `${p}/`),
    ) ||
    PERSON_ONLY_PATHS.some((re) => re.test(path))
  )
    return false;
  return scope === 'full' || READS.has(method.toUpperCase());
}

export const keyNotAllowed = () => new ApiError(ApiKeyCode.NOT_ALLOWED, 'errors.apiKeys.notAllowed');

export interface KeyRateLimiter {
  /** Spends one call of the key's and the account's minute; 429 with retry_after when none is left. */
  consume(key: ApiKey, user: User): Promise<{ limit: number; remaining: number }>;
}

/**
 * The plan's api_requests_per_minute (RankLimits), counted twice: per key, and per account
 * across all its keys — otherwise 20 keys would multiply a Free account's 60 calls to 1,200.
 */
export function createKeyRateLimiter(redis?: Redis | null): KeyRateLimiter {
  // One limiter per distinct allowance (a handful of plans) and kind, keyed by key or user id.
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiterFor = (kind: 'apikey' | 'account', points: number) => {
    const name = `${kind}:${points}`;
    let limiter = limiters.get(name);
    if (!limiter) {
      const opts = { keyPrefix: `rl:${name}`, points, duration: 60 };
      // While Redis is away each process counts on its own (insuranceLimiter) instead of failing.
      limiter = redis
        ? new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: new RateLimiterMemory(opts) })
        : new RateLimiterMemory(opts);
      limiters.set(name, limiter);
    }
    return limiter;
  };
  return {
    async consume(key, user) {
      const limit = Math.max(1, limitsFor(user.rankName, user.customLimits).api_requests_per_minute);
      try {
        const account = await limiterFor('account', limit).consume(user.id);
        const own = await limiterFor('apikey', limit).consume(key.id);
        return { limit, remaining: Math.min(account.remainingPoints, own.remainingPoints) };
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        throw new ApiError(ApiKeyCode.RATE_LIMITED, 'errors.apiKeys.rateLimited', {
          retry_after: Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
          limit,
        });
      }
    },
  };
}
