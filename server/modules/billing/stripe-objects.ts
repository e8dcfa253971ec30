import type Stripe from 'stripe';

// Readers for the Stripe object fields we use. Webhook payloads follow the API version of the
// endpoint set in the Stripe dashboard, which may be older than stripe-node's; the fields that
// moved (the subscription period, an invoice's subscription, price and payment) are read from
// either place.

type Loose = Record<string, unknown>;
const obj = (v: unknown): Loose | null => (v && typeof v === 'object' ? (v as Loose) : null);
const idOf = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof obj(v)?.id === 'string' ? (obj(v)!.id as string) : null;
const seconds = (v: unknown): Date | null => (typeof v === 'number' ? new Date(v * 1000) : null);

export function customerId(o: { customer?: unknown }): string | null {
  return idOf(o.customer);
}

export interface SubscriptionFacts {
  id: string;
  customerId: string | null;
  status: string;
  priceId: string | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  userId: string | null;
  /** The plan item's id (to change its quantity) and quantity: the seats bought. */
  itemId: string | null;
  quantity: number;
}

export function subscriptionFacts(sub: Stripe.Subscription): SubscriptionFacts {
  const loose = sub as unknown as Loose;
  const item = sub.items?.data?.[0] as unknown as Loose | undefined;
  return {
    id: sub.id,
    customerId: customerId(sub),
    status: sub.status,
    priceId: idOf(obj(item?.price)) ?? null,
    periodStart: seconds(item?.current_period_start) ?? seconds(loose.current_period_start),
    periodEnd: seconds(item?.current_period_end) ?? seconds(loose.current_period_end),
    cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end || sub.cancel_at),
    userId: sub.metadata?.user_id ?? null,
    itemId: typeof item?.id === 'string' ? item.id : null,
    quantity: typeof item?.quantity === 'number' && item.quantity > 0 ? item.quantity : 1,
  };
}

export interface InvoiceFacts {
  id: string;
  customerId: string | null;
  status: string | null;
  amountPaid: number;
  tax: number;
  currency: string;
  subscriptionId: string | null;
  priceId: string | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  paymentIntentId: string | null;
  chargeId: string | null;
  paidAt: Date | null;
  userId: string | null;
}

export function invoiceFacts(invoice: Stripe.Invoice): InvoiceFacts {
  const loose = invoice as unknown as Loose;
  const details = obj(obj(loose.parent)?.subscription_details);
  const lines = (invoice.lines?.data ?? []) as unknown as Loose[];
  // The subscription line (not a proration or one-off item) carries the plan's price and period.
  const line = lines.find((l) => l.amount !== undefined && Number(l.amount) >= 0) ?? lines[0];
  const linePrice = idOf(obj(obj(line?.pricing)?.price_details)?.price) ?? idOf(line?.price) ?? null;
  const period = obj(line?.period);
  const payments = (obj(loose.payments)?.data ?? []) as Loose[];
  const paid = payments.find((p) => p.status === 'paid') ?? payments[0];
  const payment = obj(paid?.payment);
  const taxes = Array.isArray(loose.total_taxes)
    ? (loose.total_taxes as Loose[]).reduce((s, t) => s + Number(t.amount ?? 0), 0)
    : Number(loose.tax ?? 0);
  const metadata = obj(details?.metadata) ?? obj(obj(loose.subscription_details)?.metadata);
  return {
    id: invoice.id!,
    customerId: customerId(invoice),
    status: invoice.status ?? null,
    amountPaid: invoice.amount_paid,
    tax: taxes,
    currency: invoice.currency,
    subscriptionId: idOf(details?.subscription) ?? idOf(loose.subscription),
    priceId: linePrice,
    periodStart: seconds(period?.start) ?? seconds(invoice.period_start),
    periodEnd: seconds(period?.end) ?? seconds(invoice.period_end),
    paymentIntentId: idOf(payment?.payment_intent) ?? idOf(loose.payment_intent),
    chargeId: idOf(payment?.charge) ?? idOf(loose.charge),
    paidAt: seconds(invoice.status_transitions?.paid_at),
    userId: typeof metadata?.user_id === 'string' ? metadata.user_id : null,
  };
}
