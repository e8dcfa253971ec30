import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { signedInUser } from '../test/users';
import { users } from '../db/schema';
import { hashPassword } from '../modules/auth/passwords';

// Decision 0016: page policy with a nonce per response, framing, referrer, HSTS, Secure cookie.
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' };

type Harness = Awaited<ReturnType<typeof testApp>>;
const page = (): Parameters<typeof testApp>[0] => ({
  // A page that writes one inline script with the nonce it is given, as the root layout does.
  ssr: async (_request, context) =>
    new Response(`<html><body><script nonce="${context.cspNonce}">1</script></body></html>`, {
      headers: { 'content-type': 'text/html' },
    }),
});

function directives(csp: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

describe('security headers (plain setup)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await testApp(page(), { TRUST_PROXY: 'true' });
  });
  afterAll(() => h.close());

  it('gives each page a strict policy whose nonce is the one its scripts carry, new each time', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await h.app.request('/login', { headers: BROWSER });
      const csp = directives(res.headers.get('content-security-policy'));
      const html = await res.text();
      const nonce = /nonce="([^"]+)"/.exec(html)![1]!;
      expect(nonce.length).toBeGreaterThanOrEqual(22);
      nonces.add(nonce);
      expect(csp.get('script-src')).toEqual(["'self'", `'nonce-${nonce}'`]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      expect(csp.get('frame-src')).toEqual(["'none'"]);
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
    expect(nonces.size).toBe(3);
  });

  it('allows no tag manager or Google sign-in when they are not configured', async () => {
    const csp = (await h.app.request('/', { headers: BROWSER })).headers.get('content-security-policy')!;
    expect(csp).not.toContain('googletagmanager');
    expect(csp).not.toContain('accounts.google.com');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('keeps API answers unframeable and their own policy where they set one', async () => {
    const res = await h.app.request('/common-api/v1/user', { headers: BROWSER });
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends HSTS only under https (a trusted proxy says so with X-Forwarded-Proto)', async () => {
    const plain = await h.app.request('/', { headers: BROWSER });
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const proxied = await h.app.request('/', { headers: { ...BROWSER, 'x-forwarded-proto': 'https' } });
    expect(proxied.headers.get('strict-transport-security')).toMatch(/^max-age=\d{7,}/);
    const direct = await h.app.request('https://example.test/', { headers: BROWSER });
    expect(direct.headers.get('strict-transport-security')).toMatch(/^max-age=/);
  });

  it('marks the session cookie Secure when a trusted proxy forwarded https', async () => {
    await h.db.insert(users).values({
      email: 'secure@example.com',
      emailVerified: true,
      passwordHash: await hashPassword('a long secret 42'),
    });
    const login = (proto?: string) =>
      h.app.request('/common-api/v1/login', {
        method: 'POST',
        headers: {
          ...BROWSER,
          origin: 'http://localhost',
          'content-type': 'application/json',
          ...(proto ? { 'x-forwarded-proto': proto } : {}),
        },
        body: JSON.stringify({ email: 'secure@example.com', password: 'a long secret 42' }),
      });
    const plain = (await login()).headers.get('set-cookie')!;
    expect(plain).toMatch(/^token=/);
    expect(plain).not.toMatch(/;\s*Secure/i);
    const proxied = (await login('https')).headers.get('set-cookie')!;
    expect(proxied).toMatch(/;\s*Secure/i);
    expect(proxied).toMatch(/HttpOnly/i);
  });

  it('answers a huge tus Upload-Length in the JSON envelope', async () => {
    const u = await signedInUser(h.db);
    for (const length of ['99999999999999999999999', '-5', 'abc']) {
      const res = await h.app.request('/self-api/v1/uploads', {
        method: 'POST',
        headers: { ...u.headers, 'Tus-Resumable': '1.0.0', 'Upload-Length': length },
      });
      expect(res.status, length).toBeGreaterThanOrEqual(400);
      expect(res.status, length).toBeLessThan(500);
      expect(res.headers.get('content-type'), length).toMatch(/application\/json/);
      const body = (await res.json()) as { code: number; message_key: string };
      expect(body.code, length).not.toBe(200);
      expect(body.message_key, length).toMatch(/^errors\./);
    }
  });
});

describe('security headers (with a tag manager, Google sign-in and an API on another origin)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await testApp(page(), {
      GTM_ID: 'GTM-ABC123',
      GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com',
      API_BASE_URL: 'https://api.example.test',
    });
  });
  afterAll(() => h.close());

  it('allows exactly what is configured', async () => {
    const csp = directives(
      (await h.app.request('/', { headers: BROWSER })).headers.get('content-security-policy'),
    );
    expect(csp.get('script-src')).toContain('https://www.googletagmanager.com');
    expect(csp.get('script-src')).toContain('https://accounts.google.com/gsi/client');
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    expect(csp.get('frame-src')).toContain('https://accounts.google.com/gsi/');
    expect(csp.get('connect-src')).toContain('https://api.example.test');
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });
});
