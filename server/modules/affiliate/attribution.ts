import { createHmac } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { isbot } from 'isbot';
import { normalizeRefCode } from '../../../common/cookies';
import { DAY_MS } from '../../../common/dates';
import type { Db } from '../../db/client';
import { affiliateCodes, referralClicks, users } from '../../db/schema';
import type { AffiliateDeps } from './deps';

/**
 * One mailbox however it is written: lower case, '+tag' dropped, dots in the local part ignored
 * (jane.doe+promo@x and janedoe@x are the same person for self-referral).
 */
export function mailboxKey(email: string): string {
  const [local = '', domain = ''] = email.trim().toLowerCase().split('@');
  return `${local.split('+')[0]!.replaceAll('.', '')}@${domain}`;
}

/**
 * The affiliate a signup's referral code credits, or null: unknown codes are ignored and an
 * affiliate cannot refer their own mailbox.
 */
export async function referralFor(
  db: Db,
  code: string | null | undefined,
  email: string,
): Promise<{ referralCode: string; referredBy: string } | null> {
  const normalized = normalizeRefCode(code);
  if (!normalized) return null;
  const [row] = await db
    .select({ userId: affiliateCodes.userId, email: users.email })
    .from(affiliateCodes)
    .innerJoin(users, eq(users.id, affiliateCodes.userId))
    .where(eq(affiliateCodes.code, normalized))
    .limit(1);
  if (!row || mailboxKey(row.email) === mailboxKey(email)) return null;
  return { referralCode: normalized, referredBy: row.userId };
}

/**
 * Counts a referral visit once per code, client address and 24 hours; crawlers and unknown codes
 * are not counted. The User-Agent does not tell visitors apart: anyone can change it per request.
 * The address is kept only as a keyed hash.
 */
export async function recordClick(
  deps: AffiliateDeps,
  input: { code: string; ip: string; userAgent: string | null },
): Promise<boolean> {
  const code = normalizeRefCode(input.code);
  if (!code || !input.userAgent || isbot(input.userAgent)) return false;
  const [known] = await deps.db.select().from(affiliateCodes).where(eq(affiliateCodes.code, code)).limit(1);
  if (!known) return false;
  const visitor = createHmac('sha256', deps.config.clickSecret)
    .update(input.ip)
    .digest('base64url')
    .slice(0, 32);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    // One (code, visitor) at a time, so simultaneous requests cannot both count.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`click:${code}:${visitor}`}))`);
    const [recent] = await tx
      .select({ id: referralClicks.id })
      .from(referralClicks)
      .where(
        and(
          eq(referralClicks.code, code),
          eq(referralClicks.visitor, visitor),
          gt(referralClicks.createdAt, new Date(now.getTime() - DAY_MS)),
        ),
      )
      .limit(1);
    if (recent) return false;
    await tx.insert(referralClicks).values({ code, visitor, createdAt: now });
    return true;
  });
}
