import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  assertAllowed,
  clearFailures,
  consume,
  createLimiters,
  recordFailure,
} from '../../server/modules/auth/rate-limits';
import { ApiError } from '../../server/modules/errors';

// Two limiter sets on one Redis behave like two web processes: the limit is shared.
const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const a = new Redis(url, { maxRetriesPerRequest: 2 });
const b = new Redis(url, { maxRetriesPerRequest: 2 });

afterAll(async () => {
  await a.quit();
  await b.quit();
});

describe('rate limits on Redis', () => {
  it('shares one limit between processes', async () => {
    const first = createLimiters(a);
    const second = createLimiters(b);
    const address = `${randomUUID()}@example.com`;
    await consume(first, [['resendMinute', address]]);
    const refused = await consume(second, [['resendMinute', address]]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe(42901);
    expect(((refused as ApiError).data as { retry_after: number }).retry_after).toBeGreaterThan(0);
  });

  it('keeps separate keys apart', async () => {
    const limiters = createLimiters(a);
    await consume(limiters, [['resendMinute', `${randomUUID()}@example.com`]]);
    await expect(
      consume(limiters, [['resendMinute', `${randomUUID()}@example.com`]]),
    ).resolves.toBeUndefined();
  });

  it('counts failures without spending on checks, and forgets them', async () => {
    const limiters = createLimiters(a);
    const pair: [['loginPair', string]] = [['loginPair', `${randomUUID()}|192.0.2.1`]];
    for (let i = 0; i < 5; i++) {
      await assertAllowed(limiters, pair);
      await recordFailure(limiters, pair);
    }
    await expect(assertAllowed(createLimiters(b), pair)).rejects.toBeInstanceOf(ApiError);
    await clearFailures(limiters, pair);
    await expect(assertAllowed(limiters, pair)).resolves.toBeUndefined();
  });
});
