import { createHash, randomBytes } from 'node:crypto';

/** 256-bit opaque token, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as SHA-256 hashes, so a database leak yields no usable sessions. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
