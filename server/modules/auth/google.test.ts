import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';
import {
  GOOGLE_DEFAULTS,
  GoogleAuthError,
  buildAuthUrl,
  exchangeCode,
  newPkce,
  verifyIdToken,
  type GoogleConfig,
} from './google.ts';

const CLIENT_ID = 'test-client.apps.googleusercontent.com';
const CLIENT_SECRET = 'test-secret';
const KID = 'test-kid-1';
const REDIRECT_URI = 'https://app.example/auth/google/callback';

let server: Server;
let cfg: GoogleConfig;
let privateKey: CryptoKey;
let otherKey: CryptoKey;

/** What the fake Google "remembers" from the authorization request, keyed by code. */
const grants = new Map<string, { challenge: string; redirectUri: string; idToken: () => Promise<string> }>();
const tokenRequests: { contentType: string | undefined; form: URLSearchParams }[] = [];

function sign(
  claims: JWTPayload,
  opts: { key?: CryptoKey; kid?: string; iss?: string; aud?: string; exp?: number; iat?: number } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email: 'Alice@Example.COM', email_verified: true, name: 'Alice', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? KID, typ: 'JWT' })
    .setIssuer(opts.iss ?? 'https://accounts.google.com')
    .setAudience(opts.aud ?? CLIENT_ID)
    .setSubject('1234567890')
    .setIssuedAt(opts.iat ?? now)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(opts.key ?? privateKey);
}

async function expectReason(p: Promise<unknown>, reason: string): Promise<void> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GoogleAuthError);
  expect((err as GoogleAuthError).reason).toBe(reason);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  privateKey = pair.privateKey;
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };

  server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    void (async () => {
      if (req.method === 'GET' && req.url === '/certs') return send(200, { keys: [jwk] });
      if (req.method === 'POST' && req.url === '/token') {
        const form = new URLSearchParams(await readBody(req));
        tokenRequests.push({ contentType: req.headers['content-type'], form });
        const grant = grants.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const ok =
          req.headers['content-type']?.startsWith('application/x-www-form-urlencoded') &&
          form.get('grant_type') === 'authorization_code' &&
          form.get('client_id') === CLIENT_ID &&
          form.get('client_secret') === CLIENT_SECRET &&
          grant !== undefined &&
          form.get('redirect_uri') === grant.redirectUri &&
          createHash('sha256').update(verifier).digest('base64url') === grant.challenge;
        if (!ok || !grant) return send(400, { error: 'invalid_grant', error_description: 'Bad Request' });
        grants.delete(form.get('code')!); // codes are single-use, as at Google
        return send(200, {
          id_token: await grant.idToken(),
          access_token: 'ya29.test',
          expires_in: 3599,
          token_type: 'Bearer',
          scope: 'openid email profile',
        });
      }
      send(404, { error: 'not_found' });
    })().catch((err: unknown) => send(500, { error: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cfg = {
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    authEndpoint: GOOGLE_DEFAULTS.authEndpoint,
    tokenEndpoint: `${base}/token`,
    jwksUri: `${base}/certs`,
  };
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
});

describe('verifyIdToken', () => {
  it('accepts a valid token and maps the identity', async () => {
    const id = await verifyIdToken(cfg, await sign({ picture: 'https://lh3.example/a.png' }));
    expect(id).toEqual({
      sub: '1234567890',
      email: 'alice@example.com',
      emailVerified: true,
      name: 'Alice',
      picture: 'https://lh3.example/a.png',
    });
  });

  it('maps email_verified false and missing optional claims', async () => {
    const token = await sign({ email_verified: false, name: undefined });
    const id = await verifyIdToken(cfg, token);
    expect(id.emailVerified).toBe(false);
    expect(id.name).toBeNull();
    expect(id.picture).toBeNull();
  });

  it('accepts the bare "accounts.google.com" issuer', async () => {
    const id = await verifyIdToken(cfg, await sign({}, { iss: 'accounts.google.com' }));
    expect(id.sub).toBe('1234567890');
  });

  it('rejects an expired token', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectReason(verifyIdToken(cfg, await sign({}, { iat: now - 7200, exp: now - 60 })), 'expired');
  });

  it('honours opts.now', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await sign({}, { iat: now - 7200, exp: now - 60 });
    const id = await verifyIdToken(cfg, token, { now: new Date((now - 3600) * 1000) });
    expect(id.email).toBe('alice@example.com');
  });

  it('rejects a token for another client', async () => {
    await expectReason(verifyIdToken(cfg, await sign({}, { aud: 'other-client' })), 'audience');
  });

  it('rejects a token from another issuer', async () => {
    await expectReason(verifyIdToken(cfg, await sign({}, { iss: 'https://evil.example' })), 'issuer');
  });

  it('rejects a token signed by another key under the known kid', async () => {
    await expectReason(verifyIdToken(cfg, await sign({}, { key: otherKey })), 'signature');
  });

  it('rejects a token signed by another key under an unknown kid', async () => {
    await expectReason(
      verifyIdToken(cfg, await sign({}, { key: otherKey, kid: 'unknown-kid' })),
      'signature',
    );
  });

  it('rejects garbage', async () => {
    await expectReason(verifyIdToken(cfg, 'not-a-jwt'), 'invalid');
    await expectReason(verifyIdToken(cfg, 'a.b.c'), 'invalid');
  });

  it('rejects a nonce mismatch and accepts a matching nonce', async () => {
    const token = await sign({ nonce: 'n-1' });
    await expectReason(verifyIdToken(cfg, token, { nonce: 'n-2' }), 'invalid');
    await expect(verifyIdToken(cfg, token, { nonce: 'n-1' })).resolves.toMatchObject({ sub: '1234567890' });
  });

  it('requires the email claim', async () => {
    await expectReason(verifyIdToken(cfg, await sign({ email: undefined })), 'invalid');
  });
});

describe('exchangeCode', () => {
  it('exchanges a code end to end through the token endpoint', async () => {
    const pkce = newPkce();
    grants.set('code-ok', {
      challenge: pkce.challenge,
      redirectUri: REDIRECT_URI,
      idToken: () => sign({ nonce: 'n' }),
    });
    const id = await exchangeCode(cfg, {
      code: 'code-ok',
      redirectUri: REDIRECT_URI,
      codeVerifier: pkce.verifier,
      nonce: 'n',
    });
    expect(id).toMatchObject({ sub: '1234567890', email: 'alice@example.com', emailVerified: true });
    const last = tokenRequests.at(-1)!;
    expect(last.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(last.form.get('code_verifier')).toBe(pkce.verifier);
  });

  it("supports the 'postmessage' redirect uri", async () => {
    const pkce = newPkce();
    grants.set('code-popup', {
      challenge: pkce.challenge,
      redirectUri: 'postmessage',
      idToken: () => sign({}),
    });
    const id = await exchangeCode(cfg, {
      code: 'code-popup',
      redirectUri: 'postmessage',
      codeVerifier: pkce.verifier,
    });
    expect(id.sub).toBe('1234567890');
  });

  it('fails with exchange_failed on a bad code', async () => {
    const pkce = newPkce();
    await expectReason(
      exchangeCode(cfg, { code: 'no-such-code', redirectUri: REDIRECT_URI, codeVerifier: pkce.verifier }),
      'exchange_failed',
    );
  });

  it('fails with exchange_failed on a wrong PKCE verifier', async () => {
    grants.set('code-pkce', {
      challenge: newPkce().challenge,
      redirectUri: REDIRECT_URI,
      idToken: () => sign({}),
    });
    await expectReason(
      exchangeCode(cfg, { code: 'code-pkce', redirectUri: REDIRECT_URI, codeVerifier: newPkce().verifier }),
      'exchange_failed',
    );
  });

  it('fails with exchange_failed on a non-2xx status even if the body carries a valid id_token', async () => {
    const idToken = await sign({});
    const fetchImpl: typeof fetch = async () => Response.json({ id_token: idToken }, { status: 500 });
    await expectReason(
      exchangeCode(cfg, { code: 'c', redirectUri: REDIRECT_URI, fetchImpl }),
      'exchange_failed',
    );
  });

  it('fails with exchange_failed when the token endpoint is unreachable', async () => {
    const fetchImpl: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    await expectReason(
      exchangeCode(cfg, { code: 'c', redirectUri: REDIRECT_URI, fetchImpl }),
      'exchange_failed',
    );
  });

  it('fails with exchange_failed when the response has no id_token', async () => {
    const fetchImpl: typeof fetch = async () => Response.json({ access_token: 'x', token_type: 'Bearer' });
    await expectReason(
      exchangeCode(cfg, { code: 'c', redirectUri: REDIRECT_URI, fetchImpl }),
      'exchange_failed',
    );
  });

  it('still verifies the returned id_token', async () => {
    const pkce = newPkce();
    grants.set('code-bad-aud', {
      challenge: pkce.challenge,
      redirectUri: REDIRECT_URI,
      idToken: () => sign({}, { aud: 'other-client' }),
    });
    await expectReason(
      exchangeCode(cfg, { code: 'code-bad-aud', redirectUri: REDIRECT_URI, codeVerifier: pkce.verifier }),
      'audience',
    );
  });
});

describe('newPkce / buildAuthUrl', () => {
  it('generates a base64url verifier of valid length with its S256 challenge', () => {
    const a = newPkce();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(a.challenge).toBe(createHash('sha256').update(a.verifier).digest('base64url'));
    expect(newPkce().verifier).not.toBe(a.verifier);
  });

  it('builds an auth URL with every required parameter', () => {
    const pkce = newPkce();
    const url = new URL(
      buildAuthUrl(cfg, {
        redirectUri: REDIRECT_URI,
        state: 'st-1',
        codeChallenge: pkce.challenge,
        nonce: 'n-1',
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe(GOOGLE_DEFAULTS.authEndpoint);
    const p = url.searchParams;
    expect(Object.fromEntries(p)).toEqual({
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid email profile',
      state: 'st-1',
      code_challenge: createHash('sha256').update(pkce.verifier).digest('base64url'),
      code_challenge_method: 'S256',
      access_type: 'online',
      prompt: 'select_account',
      include_granted_scopes: 'true',
      nonce: 'n-1',
    });
  });

  it('omits nonce when not given', () => {
    const url = new URL(buildAuthUrl(cfg, { redirectUri: REDIRECT_URI, state: 's', codeChallenge: 'c' }));
    expect(url.searchParams.has('nonce')).toBe(false);
  });
});
