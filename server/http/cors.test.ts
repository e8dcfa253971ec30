import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { users } from '../db/schema';
import { hashPassword } from '../modules/auth/passwords';
import { loadEnv } from '../env';

// Decision 0021: pages on another origin (API_BASE_URL) call the API with the visitor's
// httpOnly session through credentialed CORS, for configured origins only (decision 0021).
const APP = 'https://app.example.test';
const EVIL = 'https://evil.example';
let h: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  h = await testApp(
    {},
    { CORS_ORIGINS: `${APP}, https://other.example.test/`, COOKIE_DOMAIN: 'example.test' },
  );
  await h.db.insert(users).values({
    email: 'cors@example.com',
    emailVerified: true,
    passwordHash: await hashPassword('a long secret 42'),
  });
});
afterAll(() => h.close());

const preflight = (path: string, origin: string, method = 'POST') =>
  h.app.request(path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'content-type',
    },
  });

describe('credentialed CORS for configured origins', () => {
  it('answers preflights for the configured origins only', async () => {
    const ok = await preflight('/common-api/v1/login', APP);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(APP);
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ok.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    const evil = await preflight('/common-api/v1/login', EVIL);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('logs in from the other origin: the session cookie is httpOnly, shared by the domain, and then accepted', async () => {
    const login = await h.app.request('/common-api/v1/login', {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'cors@example.com', password: 'a long secret 42' }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('access-control-allow-origin')).toBe(APP);
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Domain=example\.test/i);
    const token = /token=([^;]+)/.exec(cookie)![1]!;
    const user = await h.app.request('/common-api/v1/user', {
      headers: { origin: APP, cookie: `token=${token}` },
    });
    expect(user.status).toBe(200);
    expect(user.headers.get('access-control-allow-origin')).toBe(APP);
    // Logging out clears the same domain's cookie.
    const out = await h.app.request('/common-api/v1/logout', {
      method: 'DELETE',
      headers: { origin: APP, cookie: `token=${token}` },
    });
    expect(out.headers.get('set-cookie')).toMatch(/Domain=example\.test/i);
  });

  it('refuses writes from any other origin, and lets it read nothing', async () => {
    const res = await h.app.request('/common-api/v1/login', {
      method: 'POST',
      headers: { origin: EVIL, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'cors@example.com', password: 'a long secret 42' }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('lets the configured origins upload (tus) with credentials, and no one else', async () => {
    const ok = await preflight('/self-api/v1/uploads', APP);
    expect(ok.headers.get('access-control-allow-origin')).toBe(APP);
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    const evil = await preflight('/self-api/v1/uploads', EVIL);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('without CORS_ORIGINS', () => {
  let plain: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    plain = await testApp();
  });
  afterAll(() => plain.close());

  it('answers no other origin, tus included (its default was any origin)', async () => {
    for (const path of ['/common-api/v1/login', '/self-api/v1/uploads']) {
      const res = await plain.app.request(path, {
        method: 'OPTIONS',
        headers: { origin: APP, 'access-control-request-method': 'POST' },
      });
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });

  it('refuses a CORS_ORIGINS entry that is not an origin', () => {
    expect(() => loadEnv({ CORS_ORIGINS: 'javascript:alert(1)' })).toThrow();
    expect(loadEnv({ CORS_ORIGINS: 'https://a.example/x, http://b.example:8080' }).CORS_ORIGINS).toEqual([
      'https://a.example',
      'http://b.example:8080',
    ]);
  });
});
