import { createHash, randomBytes } from 'node:crypto';
import type { createRemoteJWKSet, errors as JoseErrors, JWTPayload } from 'jose';

/** jose (≈ 10 MB) is loaded with the first Google sign-in, not at start (decision 0015). */
const loadJose = () => import('jose');

/** "Sign in with Google" (OpenID Connect authorization-code flow with PKCE), server side. */

export interface GoogleConfig {
  clientId: string;
  /** Optional: public/PKCE-only clients have none. */
  clientSecret?: string;
  authEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
}

export const GOOGLE_DEFAULTS = {
  authEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenEndpoint: 'https://oauth2.googleapis.com/token',
  jwksUri: 'https://www.googleapis.com/oauth2/v3/certs',
} as const;

export interface GoogleIdentity {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}

export type GoogleAuthErrorReason =
  'expired' | 'audience' | 'issuer' | 'signature' | 'invalid' | 'exchange_failed';

/** Callers branch on `reason`; `message`/`cause` are for logs only, never for the user. */
export class GoogleAuthError extends Error {
  override name = 'GoogleAuthError';
  constructor(
    readonly reason: GoogleAuthErrorReason,
    message: string = reason,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// Google signs ID tokens with either spelling of the issuer.
const ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

export function newPkce(): { verifier: string; challenge: string } {
  // 32 random bytes → 43 base64url chars, the RFC 7636 minimum length at full entropy.
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export function buildAuthUrl(
  cfg: GoogleConfig,
  opts: { redirectUri: string; state: string; codeChallenge: string; nonce?: string },
): string {
  const url = new URL(cfg.authEndpoint);
  const p = url.searchParams;
  p.set('client_id', cfg.clientId);
  p.set('redirect_uri', opts.redirectUri);
  p.set('response_type', 'code');
  p.set('scope', 'openid email profile');
  p.set('state', opts.state);
  p.set('code_challenge', opts.codeChallenge);
  p.set('code_challenge_method', 'S256');
  // We only need the identity once, so no refresh token (offline) is requested.
  p.set('access_type', 'online');
  // Let users with several Google accounts pick one instead of silently reusing the last.
  p.set('prompt', 'select_account');
  p.set('include_granted_scopes', 'true');
  if (opts.nonce) p.set('nonce', opts.nonce);
  return url.toString();
}

export async function exchangeCode(
  cfg: GoogleConfig,
  opts: {
    code: string;
    /** The redirect_uri used in the auth request, or 'postmessage' for the GIS popup code flow. */
    redirectUri: string;
    codeVerifier?: string;
    /** Checked against the ID token when the auth request carried one. */
    nonce?: string;
    fetchImpl?: typeof fetch;
  },
): Promise<GoogleIdentity> {
  const form = new URLSearchParams({
    code: opts.code,
    client_id: cfg.clientId,
    redirect_uri: opts.redirectUri,
    grant_type: 'authorization_code',
  });
  if (cfg.clientSecret) form.set('client_secret', cfg.clientSecret);
  if (opts.codeVerifier) form.set('code_verifier', opts.codeVerifier);

  const doFetch = opts.fetchImpl ?? fetch;
  let idToken: unknown;
  try {
    const res = await doFetch(cfg.tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) {
      // Google's body is {error, error_description}; keep it for logs, it holds no secrets.
      const body = await res.text().catch(() => '');
      throw new GoogleAuthError('exchange_failed', `token endpoint ${res.status}: ${body.slice(0, 200)}`);
    }
    idToken = ((await res.json()) as { id_token?: unknown } | null)?.id_token;
  } catch (err) {
    if (err instanceof GoogleAuthError) throw err;
    throw new GoogleAuthError('exchange_failed', 'token request failed', { cause: err });
  }
  if (typeof idToken !== 'string' || !idToken) {
    throw new GoogleAuthError('exchange_failed', 'token response has no id_token');
  }
  return verifyIdToken(cfg, idToken, { nonce: opts.nonce });
}

// One JWKS fetcher per URI so jose's key cache and refetch cooldown survive across requests.
const jwksCache = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

async function jwksFor(uri: string): Promise<ReturnType<typeof createRemoteJWKSet>> {
  let jwks = jwksCache.get(uri);
  if (!jwks) {
    jwks = (await loadJose()).createRemoteJWKSet(new URL(uri));
    jwksCache.set(uri, jwks);
  }
  return jwks;
}

export async function verifyIdToken(
  cfg: GoogleConfig,
  idToken: string,
  opts: { now?: Date; nonce?: string } = {},
): Promise<GoogleIdentity> {
  const { errors, jwtVerify } = await loadJose();
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, await jwksFor(cfg.jwksUri), {
      algorithms: ['RS256'],
      audience: cfg.clientId,
      issuer: ISSUERS,
      currentDate: opts.now,
      clockTolerance: 5,
      requiredClaims: ['sub', 'email'],
    }));
  } catch (err) {
    throw new GoogleAuthError(reasonFor(errors, err), err instanceof Error ? err.message : 'invalid token', {
      cause: err,
    });
  }

  if (opts.nonce !== undefined && payload.nonce !== opts.nonce) {
    throw new GoogleAuthError('invalid', 'nonce mismatch');
  }
  const { sub, email } = payload;
  if (typeof sub !== 'string' || !sub || typeof email !== 'string' || !email) {
    throw new GoogleAuthError('invalid', 'sub/email claim missing');
  }
  return {
    sub,
    email: email.toLowerCase(),
    // Older Google tokens sent the string "true"; anything else counts as unverified.
    emailVerified: payload.email_verified === true || payload.email_verified === 'true',
    name: typeof payload.name === 'string' ? payload.name : null,
    picture: typeof payload.picture === 'string' ? payload.picture : null,
  };
}

function reasonFor(errors: typeof JoseErrors, err: unknown): GoogleAuthErrorReason {
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return 'audience';
    if (err.claim === 'iss') return 'issuer';
    return 'invalid';
  }
  // Unknown kid ends up here after jose has refetched the JWKS (key rotation).
  if (err instanceof errors.JWSSignatureVerificationFailed || err instanceof errors.JWKSNoMatchingKey) {
    return 'signature';
  }
  return 'invalid';
}
