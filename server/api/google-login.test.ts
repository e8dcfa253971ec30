import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testApp } from '../test/harness';
import { users } from '../db/schema';

// A local server plays Google's JWKS and token endpoints with keys made here.
const CLIENT_ID = 'clip.apps.googleusercontent.com';
let jwksServer: Server;
let key: CryptoKey;
let stranger: CryptoKey;
let h: Awaited<ReturnType<typeof testApp>>;
const codes = new Map<string, string>();

function idToken(claims: JWTPayload, opts: { key?: CryptoKey; aud?: string; exp?: number } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email_verified: true, name: 'G User', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer('https://accounts.google.com')
    .setAudience(opts.aud ?? CLIENT_ID)
    .setIssuedAt(now)
    .setExpirationTime(opts.exp ?? now + 600)
    .sign(opts.key ?? key);
}

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  key = pair.privateKey;
  stranger = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  jwksServer = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/certs') return res.end(JSON.stringify({ keys: [jwk] }));
      const form = new URLSearchParams(body);
      const token = codes.get(form.get('code') ?? '');
      if (req.url === '/token' && token && form.get('redirect_uri') === 'postmessage') {
        return res.end(
          JSON.stringify({ id_token: token, access_token: 'at', token_type: 'Bearer', expires_in: 3600 }),
        );
      }
      res.statusCode = 400;
      res.end(JSON.stringify({ error: 'invalid_grant' }));
    });
  });
  await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}`;
  h = await testApp(
    {},
    {
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: 'secret',
      GOOGLE_JWKS_URL: `${base}/certs`,
      GOOGLE_TOKEN_URL: `${base}/token`,
    },
  );
});
afterAll(async () => {
  await h.close();
  await new Promise<void>((r) => jwksServer.close(() => r()));
});

async function googleLogin(body: unknown) {
  const res = await h.app.request('/common-api/v1/auth-google/login', {
    method: 'POST',
    headers: { origin: 'http://localhost', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { res, json: (await res.json()) as { code: number; data: any } };
}

describe('Google login', () => {
  it('creates a verified account from an ID token', async () => {
    const r = await googleLogin({ credential: await idToken({ sub: 'g-1', email: 'New@Gmail.com' }) });
    expect(r.json.code).toBe(200);
    expect(r.json.data.user).toMatchObject({
      email: 'new@gmail.com',
      google_linked: true,
      has_password: false,
      email_verified: true,
    });
    expect(r.res.headers.getSetCookie().some((c) => c.startsWith('token='))).toBe(true);
  });

  it('links to the existing account with the same address', async () => {
    const [existing] = await h.db
      .insert(users)
      .values({ email: 'old@example.com', emailVerified: true })
      .returning();
    const r = await googleLogin({ credential: await idToken({ sub: 'g-2', email: 'old@example.com' }) });
    expect(r.json.data.user.id).toBe(existing!.id);
    const [row] = await h.db.select().from(users).where(eq(users.id, existing!.id));
    expect(row?.googleSub).toBe('g-2');
  });

  it('drops the unproven password of a pending sign-up it confirms (pre-hijacking)', async () => {
    const { hashPassword } = await import('../modules/auth/passwords');
    // Someone signed up with the address first and never confirmed it.
    await h.db.insert(users).values({
      email: 'prehijack@example.com',
      name: 'Mallory',
      passwordHash: await hashPassword('attacker pass 1'),
    });
    const r = await googleLogin({
      credential: await idToken({ sub: 'g-pre', email: 'prehijack@example.com' }),
    });
    expect(r.json.data.user).toMatchObject({ has_password: false, email_verified: true, name: 'G User' });
    const login = await h.app.request('/common-api/v1/login', {
      method: 'POST',
      headers: { origin: 'http://localhost', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'prehijack@example.com', password: 'attacker pass 1' }),
    });
    expect(((await login.json()) as { code: number }).code).toBe(40101);
  });

  it('exchanges a popup code', async () => {
    codes.set('code-abc', await idToken({ sub: 'g-3', email: 'popup@example.com' }));
    const r = await googleLogin({ code: 'code-abc' });
    expect(r.json.data.user.email).toBe('popup@example.com');
    expect((await googleLogin({ code: 'unknown-code' })).json.code).toBe(40103);
  });

  it('refuses expired, wrong-audience, wrongly signed and unverified tokens', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    const bad = [
      await idToken({ sub: 'x', email: 'x@example.com' }, { exp: past }),
      await idToken({ sub: 'x', email: 'x@example.com' }, { aud: 'someone-else' }),
      await idToken({ sub: 'x', email: 'x@example.com' }, { key: stranger }),
      await idToken({ sub: 'x', email: 'x@example.com', email_verified: false }),
    ];
    for (const credential of bad) {
      const r = await googleLogin({ credential });
      expect(r.json.code).toBe(40103);
      expect(r.res.status).toBe(401);
    }
  });

  it('gives an authorization URL with state and PKCE and remembers them in a cookie', async () => {
    const res = await h.app.request('/common-api/v1/auth-google/auth-url', {
      method: 'POST',
      headers: { origin: 'http://localhost' },
    });
    const json = (await res.json()) as { data: { url: string } };
    const url = new URL(json.data.url);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const state = url.searchParams.get('state')!;
    expect(res.headers.getSetCookie().find((c) => c.startsWith('g_oauth='))).toContain(state);
    const forged = await googleLogin({ code: 'code-x', state: 'not-the-state' });
    expect(forged.json.code).toBe(40103);
  });
});
