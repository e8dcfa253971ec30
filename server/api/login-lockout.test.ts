import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { hashPassword } from '../modules/auth/passwords';
import { users } from '../db/schema';

// Strangers' wrong passwords must not lock the owner out of their own places.
let h: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  h = await testApp({}, { TRUST_PROXY: 'true' });
});
afterAll(() => h.close());

async function login(email: string, password: string, ip: string) {
  const res = await h.app.request('/common-api/v1/login', {
    method: 'POST',
    headers: { origin: 'http://localhost', 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password }),
  });
  return ((await res.json()) as { code: number }).code;
}

describe('login limits', () => {
  it('lets the owner in from an address they used before, whatever strangers tried', async () => {
    await h.db.insert(users).values({
      email: 'owner@example.com',
      emailVerified: true,
      passwordHash: await hashPassword('owner secret 1'),
    });
    expect(await login('owner@example.com', 'owner secret 1', '192.0.2.10')).toBe(200);

    // Twenty wrong guesses from twenty addresses.
    const guesses: number[] = [];
    for (let i = 0; i < 20; i++)
      guesses.push(await login('owner@example.com', `guess ${i}`, `198.51.100.${i}`));
    expect(guesses.slice(0, 10).every((c) => c === 40101)).toBe(true);
    // The account is closed to addresses it never logged in from …
    expect(guesses.slice(10).every((c) => c === 42901)).toBe(true);
    expect(await login('owner@example.com', 'owner secret 1', '203.0.113.7')).toBe(42901);
    // … but not to the owner's own.
    expect(await login('owner@example.com', 'owner secret 1', '192.0.2.10')).toBe(200);
  });

  it('limits guessing from one address, also one the owner used', async () => {
    await h.db.insert(users).values({
      email: 'pair@example.com',
      emailVerified: true,
      passwordHash: await hashPassword('pair secret 1'),
    });
    expect(await login('pair@example.com', 'pair secret 1', '192.0.2.20')).toBe(200);
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push(await login('pair@example.com', `wrong ${i}`, '192.0.2.20'));
    expect(codes.slice(0, 5).every((c) => c === 40101)).toBe(true);
    expect(codes.slice(5)).toEqual([42901, 42901]);
    // Another address is not affected by this one's failures.
    expect(await login('pair@example.com', 'pair secret 1', '192.0.2.21')).toBe(200);
  });

  it('keeps reset requests from strangers from locking the owner out of a reset', async () => {
    await h.db.insert(users).values({
      email: 'forgot@example.com',
      emailVerified: true,
      passwordHash: await hashPassword('forgot secret 1'),
    });
    expect(await login('forgot@example.com', 'forgot secret 1', '192.0.2.30')).toBe(200);
    const forgot = async (ip: string) => {
      const res = await h.app.request('/common-api/v1/forgot-password', {
        method: 'POST',
        headers: { origin: 'http://localhost', 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ email: 'forgot@example.com' }),
      });
      return ((await res.json()) as { code: number }).code;
    };
    const strangers: number[] = [];
    for (let i = 0; i < 8; i++) strangers.push(await forgot(`198.51.100.${100 + i}`));
    expect(strangers.slice(0, 5).every((c) => c === 200)).toBe(true);
    expect(strangers.slice(5).every((c) => c === 42901)).toBe(true);
    expect(await forgot('192.0.2.30')).toBe(200);
  });
});
