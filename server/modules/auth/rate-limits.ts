import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { AuthCode } from '../../../common/error-codes';
import { ApiError } from '../errors';

interface Rule {
  points: number;
  duration: number;
}

// Attempts per window (seconds). Per-IP rules stop spraying, per-account rules stop guessing.
// Login failures (and reset requests) count per account and address (…Pair), and per account
// only from addresses that never logged in to it (…Account): strangers never lock the owner out
// of the places they use (docs/decisions/0006).
const RULES = {
  loginIp: { points: 30, duration: 15 * 60 },
  loginPair: { points: 5, duration: 15 * 60 },
  loginAccount: { points: 10, duration: 15 * 60 },
  signupIp: { points: 10, duration: 60 * 60 },
  forgotIp: { points: 10, duration: 60 * 60 },
  forgotPair: { points: 3, duration: 60 * 60 },
  forgotAccount: { points: 5, duration: 60 * 60 },
  resendMinute: { points: 1, duration: 60 },
  resendDay: { points: 10, duration: 24 * 60 * 60 },
  verifyIp: { points: 30, duration: 15 * 60 },
  // A signed-in person confirming the password (revealing a webhook secret): failures per account.
  confirmAccount: { points: 5, duration: 15 * 60 },
} satisfies Record<string, Rule>;

export type LimitName = keyof typeof RULES;
export type Limiters = Record<LimitName, RateLimiterAbstract>;

/** In memory by default; shared through Redis when the app runs on several processes. */
export function createLimiters(redis?: Redis | null): Limiters {
  const entries = Object.entries(RULES).map(([name, rule]) => {
    const opts = { keyPrefix: `rl:${name}`, points: rule.points, duration: rule.duration };
    return [
      name,
      // While Redis is away each process counts on its own (insuranceLimiter) instead of failing.
      redis
        ? new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: new RateLimiterMemory(opts) })
        : new RateLimiterMemory(opts),
    ];
  });
  return Object.fromEntries(entries) as Limiters;
}

const limited = (msBeforeNext: number) =>
  new ApiError(AuthCode.RATE_LIMITED, 'errors.api.rateLimited', {
    retry_after: Math.max(1, Math.ceil(msBeforeNext / 1000)),
  });

/** Spends one point for each (limiter, key); the first exhausted one answers 429 with Retry-After. */
export async function consume(limiters: Limiters, checks: [LimitName, string][]): Promise<void> {
  for (const [name, key] of checks) {
    try {
      await limiters[name].consume(key.toLowerCase());
    } catch (err) {
      if (err instanceof RateLimiterRes) throw limited(err.msBeforeNext);
      throw err;
    }
  }
}

/** 429 when any (limiter, key) has no points left; spends nothing (for limits that count failures). */
export async function assertAllowed(limiters: Limiters, checks: [LimitName, string][]): Promise<void> {
  for (const [name, key] of checks) {
    const res = await limiters[name].get(key.toLowerCase());
    if (res && res.remainingPoints <= 0) throw limited(res.msBeforeNext);
  }
}

/** Counts one failure for each (limiter, key), past the limit too. */
export async function recordFailure(limiters: Limiters, checks: [LimitName, string][]): Promise<void> {
  for (const [name, key] of checks) {
    await limiters[name].penalty(key.toLowerCase(), 1);
  }
}

/** Forgets the failures of each (limiter, key), e.g. after a successful login. */
export async function clearFailures(limiters: Limiters, checks: [LimitName, string][]): Promise<void> {
  for (const [name, key] of checks) await limiters[name].delete(key.toLowerCase());
}
