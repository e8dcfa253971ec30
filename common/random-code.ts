// Short human-readable codes (invites, verification, etc.) from a CSPRNG.
// Uses the Web Crypto global, which exists in both browsers and Node 20+.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
// Largest multiple of 36 that fits in a byte; bytes at or above it are
// rejected so that `byte % 36` is uniform (plain modulo would bias A–D).
const LIMIT = 256 - (256 % ALPHABET.length); // 252
// getRandomValues refuses more than 65536 bytes per call.
const MAX_CHUNK = 65536;

/** Uniformly random string of A–Z and 0–9. Throws RangeError unless length is a positive integer. */
export function randomCode(length: number): string {
  if (!Number.isSafeInteger(length) || length <= 0) {
    throw new RangeError(`randomCode: length must be a positive integer, got ${String(length)}`);
  }
  let out = '';
  while (out.length < length) {
    // Over-draw slightly: ~1.6% of bytes are rejected.
    const need = length - out.length;
    const bytes = new Uint8Array(Math.min(MAX_CHUNK, need + 8));
    globalThis.crypto.getRandomValues(bytes);
    for (const b of bytes) {
      if (b >= LIMIT) continue;
      out += ALPHABET.charAt(b % ALPHABET.length);
      if (out.length === length) break;
    }
  }
  return out;
}
