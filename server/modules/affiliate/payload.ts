import { asc, count, eq, inArray } from 'drizzle-orm';
import { affiliateCodes, referralClicks, users, type Affiliate, type Settlement } from '../../db/schema';
import type { Db } from '../../db/client';
import type { AffiliateDeps } from './deps';

type AffiliateCodeRow = typeof affiliateCodes.$inferSelect;

/** One of the affiliate's codes as the API shows it, with its clicks and signups. */
export function codeJson(c: Pick<AffiliateCodeRow, 'code' | 'label' | 'createdAt'>, clicks = 0, signups = 0) {
  return { code: c.code, label: c.label, created_at: c.createdAt.toISOString(), clicks, signups };
}

/** Counted clicks and signups of each code: one grouped query each, none for no codes. */
async function countPerCode(
  db: Db,
  of: 'clicks' | 'signups',
  codes: string[],
): Promise<Map<string | null, number>> {
  if (codes.length === 0) return new Map();
  const [table, column] =
    of === 'clicks' ? [referralClicks, referralClicks.code] : [users, users.referralCode];
  const rows = await db
    .select({ code: column, n: count() })
    .from(table)
    .where(inArray(column, codes))
    .groupBy(column);
  return new Map(rows.map((r) => [r.code, r.n]));
}

/** The affiliate's codes, oldest first, each with its clicks and signups. */
export async function codesOf(deps: AffiliateDeps, userId: string) {
  const codes = await deps.db
    .select()
    .from(affiliateCodes)
    .where(eq(affiliateCodes.userId, userId))
    .orderBy(asc(affiliateCodes.createdAt));
  const list = codes.map((c) => c.code);
  const clicks = await countPerCode(deps.db, 'clicks', list);
  const signups = await countPerCode(deps.db, 'signups', list);
  return codes.map((c) => codeJson(c, clicks.get(c.code) ?? 0, signups.get(c.code) ?? 0));
}

/** GET /distribution/show's data: the affiliate, their codes and the programme's terms. */
export async function affiliatePayload(deps: AffiliateDeps, a: Affiliate) {
  const codes = await codesOf(deps, a.userId);
  return {
    distribution_code: codes[0]?.code ?? null,
    codes,
    website: a.website,
    audience: a.audience,
    channel: a.channel,
    payment_type: 'paypal' as const,
    paypal_email: a.paypalEmail,
    created_at: a.createdAt.toISOString(),
    programme: {
      commission_percent: deps.config.rateBps / 100,
      window_months: deps.config.windowMonths,
      hold_days: deps.config.holdDays,
      minimum_payout: deps.config.minPayout,
    },
  };
}

/** A payout request as the API shows it (the API's paths call payouts settlements: docs/glossary.md). */
export function settlementJson(s: Settlement) {
  return {
    id: s.id,
    amount: s.amount,
    currency: s.currency,
    status: s.status,
    paypal_email: s.paypalEmail,
    paypal_transaction_id: s.paypalTransactionId,
    reason: s.reason,
    requested_at: s.requestedAt.toISOString(),
    decided_at: s.decidedAt?.toISOString() ?? null,
  };
}
