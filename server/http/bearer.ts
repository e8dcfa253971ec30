import { createHash, timingSafeEqual } from 'node:crypto';

/** Whether an Authorization header carries `Bearer <secret>` (compared in constant time). */
export function bearerMatches(header: string | undefined, secret: string): boolean {
  const given = header?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  if (!given) return false;
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(given), digest(secret));
}
