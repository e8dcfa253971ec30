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
  sql,
  sum,
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
  // Counted in the database: an affiliate may have hundreds of thousands of clicks.
  const month = (col: AnyColumn) => sql<string>`to_char(${col} at time zone 'UTC', 'YYYY-MM')`;
  const ownClicks = eq(affiliateCodes.userId, affiliateId);
  const [clicks] = await db
    .select({ n: count() })
    .from(referralClicks)
    .innerJoin(affiliateCodes, eq(affiliateCodes.code, referralClicks.code))
    .where(ownClicks);
  const clicksByMonth = await db
    .select({ month: month(referralClicks.createdAt), n: count() })
    .from(referralClicks)
    .innerJoin(affiliateCodes, eq(affiliateCodes.code, referralClicks.code))
    .where(and(ownClicks, gte(referralClicks.createdAt, start)))
    .groupBy(month(referralClicks.createdAt));
  const [signups] = await db.select({ n: count() }).from(users).where(eq(users.referredBy, affiliateId));
  const signupsByMonth = await db
    .select({ month: month(users.createdAt), n: count() })
    .from(users)
    .where(and(eq(users.referredBy, affiliateId), gte(users.createdAt, start)))
    .groupBy(month(users.createdAt));
  const [customers] = await db
    .select({ n: countDistinct(orders.userId) })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(eq(users.referredBy, affiliateId), eq(orders.kind, 'payment'), isNotNull(orders.userId)));
  const money = await balances(db, affiliateId, now);
  const currency = money[0]?.currency ?? 'usd';
  const earningsByMonth = await db
    .select({ month: month(commissions.createdAt), total: sum(commissions.amount) })
    .from(commissions)
    .where(
      and(
        eq(commissions.affiliateId, affiliateId),
        eq(commissions.currency, currency),
        gte(commissions.createdAt, start),
      ),
    )
    .groupBy(month(commissions.createdAt));
  const series = Array.from({ length: 12 }, (_, i) => {
    const key = monthKey(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + i, 1)));
    return {
      month: key,
      clicks: clicksByMonth.find((r) => r.month === key)?.n ?? 0,
      signups: signupsByMonth.find((r) => r.month === key)?.n ?? 0,
      earnings: Number(earningsByMonth.find((r) => r.month === key)?.total ?? 0),
    };
  });
  const clickCount = clicks?.n ?? 0;
  const signupCount = signups?.n ?? 0;
  return {
    balances: money,
    clicks: clickCount,
    signups: signupCount,
    customers: customers?.n ?? 0,
    conversion: clickCount ? Math.min(1, signupCount / clickCount) : 0,
    minimum_payout: deps.config.minPayout,
    series,
    currency,
  };
}
