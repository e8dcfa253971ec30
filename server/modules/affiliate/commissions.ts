import { and, eq, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { DAY_MS, addMonths } from '../../../common/dates';
import { commissions, orders, users, type Order } from '../../db/schema';
import type { AffiliateConfig } from './deps';

const share = (config: AffiliateConfig, net: number) => Math.round((net * config.rateBps) / 10_000);

/**
 * Called in the transaction that records an order (billing webhooks). A payment by a referred
 * customer within the window earns the affiliate a share of its net amount, held for the holding
 * period; a refund adds a matching negative row. A reversal of a commission not paid out yet
 * matures with it, so they cancel out; once paid out, it is deducted from the next payout.
 */
export async function commissionForOrder(tx: DbOrTx, config: AffiliateConfig, order: Order): Promise<void> {
  if (!order.userId) return;
  if (order.kind === 'payment') {
    const [customer] = await tx.select().from(users).where(eq(users.id, order.userId)).limit(1);
    if (!customer?.referredBy) return;
    if (order.paidAt >= addMonths(customer.createdAt, config.windowMonths)) return;
    const amount = share(config, order.amount - order.tax);
    if (amount <= 0) return;
    await tx
      .insert(commissions)
      .values({
        affiliateId: customer.referredBy,
        referredUserId: customer.id,
        orderId: order.id,
        code: customer.referralCode,
        kind: 'commission',
        amount,
        currency: order.currency,
        availableAt: new Date(order.paidAt.getTime() + config.holdDays * DAY_MS),
        createdAt: order.paidAt,
      })
      .onConflictDoNothing({ target: commissions.orderId });
    return;
  }
  if (!order.paymentOrderId) return;
  const [original] = await tx
    .select()
    .from(commissions)
    .where(and(eq(commissions.orderId, order.paymentOrderId), eq(commissions.kind, 'commission')))
    .limit(1);
  if (!original) return;
  // Never reverse more than was earned, whatever the refunds add up to.
  const [prior] = await tx
    .select({ total: sum(commissions.amount) })
    .from(commissions)
    .innerJoin(orders, eq(orders.id, commissions.orderId))
    .where(and(eq(commissions.kind, 'reversal'), eq(orders.paymentOrderId, order.paymentOrderId)));
  const left = original.amount + Number(prior?.total ?? 0);
  const amount = Math.min(share(config, order.amount - order.tax), left);
  if (amount <= 0) return;
  await tx
    .insert(commissions)
    .values({
      affiliateId: original.affiliateId,
      referredUserId: original.referredUserId,
      orderId: order.id,
      code: original.code,
      kind: 'reversal',
      amount: -amount,
      currency: original.currency,
      availableAt: original.settlementId ? order.paidAt : original.availableAt,
      createdAt: order.paidAt,
    })
    .onConflictDoNothing({ target: commissions.orderId });
}
