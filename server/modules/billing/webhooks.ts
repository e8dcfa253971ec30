import { and, eq, or, sql, sum } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Tx } from '../../db/client';
import { orders, stripeEvents, subscriptions, users, type User } from '../../db/schema';
import { ApiError } from '../errors';
import { UUID_RE } from '../../../common/validators';
import { planForPrice } from './config';
import type { BillingDeps } from './deps';
import { BillingCode } from '../../../common/error-codes';
import { notConfigured } from './errors';
import { recomputeRank } from './rank';
import {
  customerId,
  invoiceFacts,
  subscriptionFacts,
  type InvoiceFacts,
  type SubscriptionFacts,
} from './stripe-objects';

export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  'charge.refunded',
] as const;

export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored';

/** Verifies the Stripe-Signature header against the raw body; any mismatch is a 400. */
export function verifyEvent(deps: BillingDeps, rawBody: string, signature: string | null): Stripe.Event {
  const { stripe, webhookSecret } = deps.config;
  if (!stripe || !webhookSecret) throw notConfigured();
  try {
    return stripe.webhooks.constructEvent(rawBody, signature ?? '', webhookSecret);
  } catch {
    throw new ApiError(BillingCode.BAD_SIGNATURE, 'errors.billing.badSignature');
  }
}

/**
 * Applies one verified event at most once (its id is recorded in the same transaction as its
 * effects). The webhook is a notification: the subscription and invoice it names are read back
 * from Stripe, so the stored state is Stripe's latest whatever order events arrive in. A
 * failure rolls everything back and answers 500, and Stripe delivers the event again later.
 */
export async function applyEvent(deps: BillingDeps, event: Stripe.Event): Promise<WebhookOutcome> {
  if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) return 'ignored';
  const [seen] = await deps.db.select().from(stripeEvents).where(eq(stripeEvents.id, event.id)).limit(1);
  if (seen) return 'duplicate';
  const effect = await fetchEffect(deps, event);
  return deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (inserted.length === 0) return 'duplicate';
    await effect(tx, event.created);
    return 'applied';
  });
}

type Effect = (tx: Tx, eventCreated: number) => Promise<void>;

/** Network reads happen before the transaction; the returned effect only touches the database. */
async function fetchEffect(deps: BillingDeps, event: Stripe.Event): Promise<Effect> {
  const stripe = deps.config.stripe!;
  const data = event.data.object as unknown as Record<string, unknown>;
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      const subId =
        typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
      if (!subId) return async () => {};
      const sub = subscriptionFacts(await stripe.subscriptions.retrieve(subId));
      const hint = session.client_reference_id ?? session.metadata?.user_id ?? null;
      return (tx, at) => saveSubscription(deps, tx, sub, at, hint);
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = subscriptionFacts(await stripe.subscriptions.retrieve(String(data.id)));
      return (tx, at) => saveSubscription(deps, tx, sub, at, null);
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = invoiceFacts(await stripe.invoices.retrieve(String(data.id), { expand: ['payments'] }));
      return (tx) => saveInvoice(deps, tx, invoice);
    }
    case 'charge.refunded': {
      const charge = event.data.object as Stripe.Charge;
      return (tx) => saveRefund(deps, tx, charge);
    }
    default:
      return async () => {};
  }
}

/**
 * The account a Stripe object belongs to: by customer id, else by the user id we put in metadata.
 * An object of no known account (made outside ClipScribe, or of a deleted account) is logged and skipped.
 */
async function ownerOf(
  deps: BillingDeps,
  tx: Tx,
  object: { id: string; customerId: string | null },
  userIdHint: string | null,
): Promise<User | null> {
  const customer = object.customerId;
  if (customer) {
    const [byCustomer] = await tx.select().from(users).where(eq(users.stripeCustomerId, customer)).limit(1);
    if (byCustomer) return byCustomer;
  }
  const [byId] =
    userIdHint && UUID_RE.test(userIdHint)
      ? await tx.select().from(users).where(eq(users.id, userIdHint)).limit(1)
      : [];
  if (!byId) {
    deps.logger.warn({ object: object.id, customer }, 'stripe object of no known user');
    return null;
  }
  if (customer && !byId.stripeCustomerId) {
    await tx.update(users).set({ stripeCustomerId: customer }).where(eq(users.id, byId.id));
  }
  return byId;
}

export async function saveSubscription(
  deps: BillingDeps,
  tx: Tx,
  sub: SubscriptionFacts,
  eventAt: number,
  userIdHint: string | null,
): Promise<void> {
  const user = await ownerOf(deps, tx, sub, sub.userId ?? userIdHint);
  if (!user) return;
  const plan = planForPrice(deps.config, sub.priceId);
  if (!plan)
    deps.logger.warn({ subscription: sub.id, price: sub.priceId }, 'subscription price sells no rank');
  const now = deps.now();
  const values = {
    status: sub.status,
    priceId: sub.priceId,
    rank: plan?.rank ?? null,
    interval: plan?.interval ?? null,
    currentPeriodStart: sub.periodStart,
    currentPeriodEnd: sub.periodEnd,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    quantity: sub.quantity,
    eventAt,
    updatedAt: now,
  };
  await tx
    .insert(subscriptions)
    .values({ id: sub.id, userId: user.id, customerId: sub.customerId ?? '', ...values })
    .onConflictDoUpdate({
      target: subscriptions.id,
      set: values,
      // A state read for an older event never replaces one read for a newer event.
      setWhere: sql`${subscriptions.eventAt} <= ${eventAt}`,
    });
  await recomputeRank(tx, user.id, now);
}

async function saveInvoice(deps: BillingDeps, tx: Tx, invoice: InvoiceFacts): Promise<void> {
  const user = await ownerOf(deps, tx, invoice, invoice.userId);
  if (!user) return;
  const paid = invoice.status === 'paid';
  if (invoice.subscriptionId) {
    await tx
      .update(subscriptions)
      .set({ paymentFailed: !paid, updatedAt: deps.now() })
      .where(eq(subscriptions.id, invoice.subscriptionId));
  }
  // A zero invoice (trial, full discount) is no payment.
  if (!paid || invoice.amountPaid <= 0) return;
  const plan = planForPrice(deps.config, invoice.priceId);
  const recorded = await tx
    .insert(orders)
    .values({
      userId: user.id,
      email: user.email,
      kind: 'payment',
      amount: invoice.amountPaid,
      tax: invoice.tax,
      currency: invoice.currency,
      rank: plan?.rank ?? null,
      interval: plan?.interval ?? null,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
      stripeInvoiceId: invoice.id,
      stripeSubscriptionId: invoice.subscriptionId,
      stripePaymentIntentId: invoice.paymentIntentId,
      stripeChargeId: invoice.chargeId,
      paidAt: invoice.paidAt ?? deps.now(),
    })
    .onConflictDoNothing({ target: orders.stripeInvoiceId })
    .returning();
  if (recorded[0]) await deps.onOrder?.(tx, recorded[0]);
}

/**
 * charge.refunded carries the cumulative amount refunded; the difference to the refunds already
 * recorded for that payment is the new refund. A refund for a payment not recorded yet (its
 * invoice.paid still on the way) fails, so Stripe retries it after the payment is in.
 */
async function saveRefund(deps: BillingDeps, tx: Tx, charge: Stripe.Charge): Promise<void> {
  const paymentIntent =
    typeof charge.payment_intent === 'string' ? charge.payment_intent : (charge.payment_intent?.id ?? null);
  const match = paymentIntent
    ? or(eq(orders.stripePaymentIntentId, paymentIntent), eq(orders.stripeChargeId, charge.id))
    : eq(orders.stripeChargeId, charge.id);
  const [payment] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.kind, 'payment'), match))
    .limit(1)
    .for('update');
  if (!payment) {
    if (!customerId(charge)) return;
    throw new ApiError(BillingCode.NOT_READY, 'errors.billing.paymentNotRecorded');
  }
  const [prior] = await tx
    .select({ total: sum(orders.amount) })
    .from(orders)
    .where(and(eq(orders.kind, 'refund'), eq(orders.paymentOrderId, payment.id)));
  const delta = charge.amount_refunded - Number(prior?.total ?? 0);
  if (delta <= 0) return;
  const refund = await tx
    .insert(orders)
    .values({
      userId: payment.userId,
      email: payment.email,
      kind: 'refund',
      amount: delta,
      tax: Math.round((payment.tax * delta) / payment.amount),
      currency: charge.currency,
      rank: payment.rank,
      interval: payment.interval,
      periodStart: payment.periodStart,
      periodEnd: payment.periodEnd,
      stripeSubscriptionId: payment.stripeSubscriptionId,
      stripePaymentIntentId: payment.stripePaymentIntentId,
      stripeChargeId: charge.id,
      stripeRefundKey: `${charge.id}:${charge.amount_refunded}`,
      paymentOrderId: payment.id,
      paidAt: deps.now(),
    })
    .onConflictDoNothing({ target: orders.stripeRefundKey })
    .returning();
  if (refund[0]) await deps.onOrder?.(tx, refund[0]);
}
