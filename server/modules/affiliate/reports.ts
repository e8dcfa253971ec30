import {
  type AnyColumn,
  and,
  count,
  countDistinct,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  lt,
} from 'drizzle-orm';
import { maskEmail } from '../../../common/format';
import { affiliateCodes, commissions, orders, referralClicks, settlements, users } from '../../db/schema';
import type { AffiliateDeps } from './deps';
import { balances, stateOf, type Balance } from './payouts';

export const RECORD_TYPES = ['click', 'signup', 'commission'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface RecordQuery {
  type: RecordType;
  code?: string;
  from?: Date;
  to?: Date;
  page: number;
  page_size: number;
}

/** The Details tab: clicks, signups or commissions, newest first, filtered and paged. */
export async function recordList(deps: AffiliateDeps, affiliateId: string, q: RecordQuery) {
  const offset = (q.page - 1) * q.page_size;
  const range = (col: AnyColumn) => [...(q.from ? [gte(col, q.from)] : []), ...(q.to ? [lt(col, q.to)] : [])];
  const db = deps.db;
  if (q.type === 'click') {
    const where = and(
      eq(affiliateCodes.userId, affiliateId),
      ...(q.code ? [eq(referralClicks.code, q.code)] : []),
      ...range(referralClicks.createdAt),
    );
    const base = db
      .select()
      .from(referralClicks)
      .innerJoin(affiliateCodes, eq(affiliateCodes.code, referralClicks.code));
    const [total] = await db
      .select({ n: count() })
      .from(referralClicks)
      .innerJoin(affiliateCodes, eq(affiliateCodes.code, referralClicks.code))
      .where(where);
    const rows = await base
      .where(where)
      .orderBy(desc(referralClicks.createdAt))
      .limit(q.page_size)
      .offset(offset);
    return {
      total: total?.n ?? 0,
      items: rows.map((r) => ({
        id: r.referral_clicks.id,
        code: r.referral_clicks.code,
        created_at: r.referral_clicks.createdAt.toISOString(),
      })),
    };
  }
  if (q.type === 'signup') {
    const where = and(
      eq(users.referredBy, affiliateId),
      ...(q.code ? [eq(users.referralCode, q.code)] : []),
      ...range(users.createdAt),
    );
    const [total] = await db.select({ n: count() }).from(users).where(where);
    const rows = await db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt))
      .limit(q.page_size)
      .offset(offset);
    const paying = new Set(
      rows.length
        ? (
            await db
              .selectDistinct({ id: orders.userId })
              .from(orders)
              .where(
                and(
                  eq(orders.kind, 'payment'),
                  inArray(
                    orders.userId,
                    rows.map((r) => r.id),
                  ),
                ),
              )
          ).map((r) => r.id)
        : [],
    );
    return {
      total: total?.n ?? 0,
      items: rows.map((u) => ({
        id: u.id,
        customer: maskEmail(u.email),
        code: u.referralCode,
        paying: paying.has(u.id),
        created_at: u.createdAt.toISOString(),
      })),
    };
  }
  const where = and(
    eq(commissions.affiliateId, affiliateId),
    ...(q.code ? [eq(commissions.code, q.code)] : []),
    ...range(commissions.createdAt),
  );
  const [total] = await db.select({ n: count() }).from(commissions).where(where);
  const rows = await db
    .select({ c: commissions, email: users.email, payout: settlements })
    .from(commissions)
    .leftJoin(users, eq(users.id, commissions.referredUserId))
    .leftJoin(settlements, eq(settlements.id, commissions.settlementId))
    .where(where)
    .orderBy(desc(commissions.createdAt))
    .limit(q.page_size)
    .offset(offset);
  const now = deps.now();
  return {
    total: total?.n ?? 0,
    items: rows.map(({ c, email, payout }) => ({
      id: c.id,
      kind: c.kind,
      amount: c.amount,
      currency: c.currency,
      state: stateOf(c, payout ?? undefined, now),
      code: c.code,
      customer: email ? maskEmail(email) : null,
      available_at: c.availableAt.toISOString(),
      created_at: c.createdAt.toISOString(),
    })),
  };
}

export interface CommissionSummary {
  balances: Balance[];
  clicks: number;
  signups: number;
  customers: number;
  /** Signups per click, 0–1. */
  conversion: number;
  minimum_payout: number;
  /** The last twelve months, oldest first; earnings in the main currency. */
  series: { month: string; clicks: number; signups: number; earnings: number }[];
  currency: string;
}

const monthKey = (d: Date) => d.toISOString().slice(0, 7);

/** The Dashboard tab's figures and chart. */
export async function commissionSummary(
  deps: AffiliateDeps,
  affiliateId: string,
): Promise<CommissionSummary> {
  const db = deps.db;
  const now = deps.now();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
  const clickRows = await db
    .select({ at: referralClicks.createdAt })
    .from(referralClicks)
    .innerJoin(affiliateCodes, eq(affiliateCodes.code, referralClicks.code))
    .where(eq(affiliateCodes.userId, affiliateId));
  const signupRows = await db
    .select({ at: users.createdAt, id: users.id })
    .from(users)
    .where(eq(users.referredBy, affiliateId));
  const [customers] = await db
    .select({ n: countDistinct(orders.userId) })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(eq(users.referredBy, affiliateId), eq(orders.kind, 'payment'), isNotNull(orders.userId)));
  const money = await balances(db, affiliateId, now);
  const currency = money[0]?.currency ?? 'usd';
  const earningRows = await db
    .select({ at: commissions.createdAt, amount: commissions.amount })
    .from(commissions)
    .where(
      and(
        eq(commissions.affiliateId, affiliateId),
        eq(commissions.currency, currency),
        gte(commissions.createdAt, start),
      ),
    );
  const series = Array.from({ length: 12 }, (_, i) => ({
    month: monthKey(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + i, 1))),
    clicks: 0,
    signups: 0,
    earnings: 0,
  }));
  const bucket = (d: Date) => series.find((s) => s.month === monthKey(d));
  for (const c of clickRows) if (c.at >= start) bucket(c.at)!.clicks += 1;
  for (const s of signupRows) if (s.at >= start) bucket(s.at)!.signups += 1;
  for (const e of earningRows) bucket(e.at)!.earnings += e.amount;
  return {
    balances: money,
    clicks: clickRows.length,
    signups: signupRows.length,
    customers: customers?.n ?? 0,
    conversion: clickRows.length ? Math.min(1, signupRows.length / clickRows.length) : 0,
    minimum_payout: deps.config.minPayout,
    series,
    currency,
  };
}
