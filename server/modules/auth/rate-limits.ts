import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { AuthCode } from '../../../common/error-codes';
import { ApiError } from '../../http/envelope';

interface Rule {
  points: number;
  duration: number;
}

// Attempts per window (seconds). Per-IP rules stop spraying, per-account rules stop guessing.
const RULES = {
  loginIp: { points: 30, duration: 15 * 60 },
  loginAccount: { points: 10, duration: 15 * 60 },
  signupIp: { points: 10, duration: 60 * 60 },
  forgotIp: { points: 10, duration: 60 * 60 },
  forgotAccount: { points: 3, duration: 60 * 60 },
  resendMinute: { points: 1, duration: 60 },
  resendDay: { points: 10, duration: 24 * 60 * 60 },
  verifyIp: { points: 30, duration: 15 * 60 },
} satisfies Record<string, Rule>;

export type LimitName = keyof typeof RULES;
export type Limiters = Record<LimitName, RateLimiterAbstract>;

/** In memory by default; shared through Redis when the app runs on several processes. */
export function createLimiters(redis?: Redis | null): Limiters {
  const entries = Object.entries(RULES).map(([name, rule]) => {
    const opts = { keyPrefix: `rl:${name}`, points: rule.points, duration: rule.duration };
    return [
      name,
      redis ? new RateLimiterRedis({ ...opts, storeClient: redis }) : new RateLimiterMemory(opts),
    ];
  });
  return Object.fromEntries(entries) as Limiters;
}

/** Spends one point for each (limiter, key); the first exhausted one answers 429 with Retry-After. */
export async function consume(limiters: Limiters, checks: [LimitName, string][]): Promise<void> {
  for (const [name, key] of checks) {
    try {
      await limiters[name].consume(key.toLowerCase());
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        const retryAfter = Math.ceil(err.msBeforeNext / 1000);
        throw new ApiError(AuthCode.RATE_LIMITED, 'errors.api.rateLimited', 429, { retry_after: retryAfter });
      }
      throw err;
    }
  }
}
