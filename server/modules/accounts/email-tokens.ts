import { randomInt } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { emailTokens, type EmailToken } from '../../db/schema';
import { hashToken, newToken } from '../auth/tokens';
import type { EmailTokenPurpose } from '../../../common/record-states';

export const VERIFY_TTL_MS = 24 * 3600 * 1000;
export const RESET_TTL_MS = 30 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;

type Purpose = EmailTokenPurpose;

/** A user's unused tokens of one purpose, expired or not. */
const unusedOf = (userId: string, purpose: Purpose) =>
  and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt));

/** Tokens of one purpose that still work: unused and not expired. */
const live = (purpose: Purpose, now: Date) =>
  and(eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now));

/** Issues a fresh token (and for verification a 6-digit code); earlier ones of that purpose die. */
export async function issueEmailToken(
  db: Db,
  userId: string,
  purpose: Purpose,
  now: Date,
): Promise<{ token: string; code: string | null }> {
  const token = newToken();
  const code = purpose === 'verify' ? String(randomInt(0, 1_000_000)).padStart(6, '0') : null;
  await db.transaction(async (tx) => {
    await tx.update(emailTokens).set({ usedAt: now }).where(unusedOf(userId, purpose));
    await tx.insert(emailTokens).values({
      userId,
      purpose,
      tokenHash: hashToken(token),
      // The code is bound to its user, so the hash includes the user id (6 digits alone are guessable offline).
      codeHash: code ? hashToken(`${userId}:${code}`) : null,
      expiresAt: new Date(now.getTime() + (purpose === 'verify' ? VERIFY_TTL_MS : RESET_TTL_MS)),
    });
  });
  return { token, code };
}

/** The live token row for a link token, or null. */
export async function findLiveToken(
  db: Db,
  token: string,
  purpose: Purpose,
  now: Date,
): Promise<EmailToken | null> {
  if (token.length > 200) return null;
  const [row] = await db
    .select()
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, hashToken(token)), live(purpose, now)))
    .limit(1);
  return row ?? null;
}

/** Checks a typed code against the user's live verification token, counting failed attempts. */
export async function checkVerifyCode(
  db: Db,
  userId: string,
  code: string,
  now: Date,
): Promise<EmailToken | null> {
  const [row] = await db
    .select()
    .from(emailTokens)
    .where(and(eq(emailTokens.userId, userId), live('verify', now)))
    .limit(1);
  if (!row || row.attempts >= MAX_CODE_ATTEMPTS) return null;
  if (row.codeHash === hashToken(`${userId}:${code}`)) return row;
  await db
    .update(emailTokens)
    .set({ attempts: row.attempts + 1 })
    .where(eq(emailTokens.id, row.id));
  return null;
}

/** Marks a token used; false when another request used it first (single use, also when raced). */
export async function consumeToken(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.id, id), isNull(emailTokens.usedAt)))
    .returning({ id: emailTokens.id });
  return rows.length === 1;
}

/** Ends a user's live verification codes and links. */
export async function revokeVerifyCodes(db: Db, userId: string, now: Date): Promise<void> {
  await db.update(emailTokens).set({ usedAt: now }).where(unusedOf(userId, 'verify'));
}

/** Whether a choose-password (reset) link was ever mailed to this user. */
export async function hasResetToken(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: emailTokens.id })
    .from(emailTokens)
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, 'reset')))
    .limit(1);
  return !!row;
}
