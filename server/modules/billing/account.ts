import { desc, eq } from 'drizzle-orm';
import { orders, subscriptions, type User } from '../../db/schema';
import type { BillingDeps } from './deps';
import { LIVE_STATUSES } from './rank';
import type { BillingStatusJson, OrderJson } from '../../../common/billing-types';

/** What the profile and /pay-success show: the rank in force and the subscription behind it. */
export async function billingStatus(deps: BillingDeps, user: User): Promise<BillingStatusJson> {
  const subs = await deps.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, user.id))
    .orderBy(desc(subscriptions.updatedAt));
  const sub = subs.find((s) => LIVE_STATUSES.includes(s.status)) ?? null;
  return {
    rank_name: user.rankName,
    payments_enabled: deps.config.stripe !== null,
    has_customer: user.stripeCustomerId !== null,
    subscription: sub && {
      rank: sub.rank,
      interval: sub.interval,
      status: sub.status,
      current_period_end: sub.currentPeriodEnd?.toISOString() ?? null,
      cancel_at_period_end: sub.cancelAtPeriodEnd,
      payment_failed: sub.paymentFailed,
    },
    granted_until: user.grantedRank && user.grantedUntil ? user.grantedUntil.toISOString() : null,
  };
}

/** The account's payments and refunds, newest first. */
export async function listOrders(deps: BillingDeps, user: User): Promise<OrderJson[]> {
  const rows = await deps.db
    .select()
    .from(orders)
    .where(eq(orders.userId, user.id))
    .orderBy(desc(orders.paidAt))
    .limit(100);
  return rows.map((o) => ({
    id: o.id,
    kind: o.kind,
    amount: o.amount,
    currency: o.currency,
    rank: o.rank,
    interval: o.interval,
    period_start: o.periodStart?.toISOString() ?? null,
    period_end: o.periodEnd?.toISOString() ?? null,
    paid_at: o.paidAt.toISOString(),
  }));
}
