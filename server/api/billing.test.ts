import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { orders, subscriptions, users } from '../db/schema';
import { testApp } from '../test/harness';
import { signedInUser } from '../test/users';
import {
  chargeObject,
  invoiceObject,
  signedEvent,
  startFakeStripe,
  subscriptionObject,
  type FakeStripe,
} from '../test/fake-stripe';

const SECRET = 'whsec_test_secret';
const PRICES = {
  STRIPE_PRICE_STARTER_MONTHLY: 'price_starter_m',
  STRIPE_PRICE_STARTER_YEARLY: 'price_starter_y',
  STRIPE_PRICE_BASIC_MONTHLY: 'price_basic_m',
  STRIPE_PRICE_UNLIMITED_YEARLY: 'price_unlimited_y',
};

describe('billing without Stripe configuration', () => {
  let h: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    h = await testApp();
  });
  afterAll(() => h.close());

  it('lists every plan with list prices and says payments are off', async () => {
    const res = await h.app.request('/self-api/v1/billing/plans');
    const { data } = await res.json();
    expect(data.payments_enabled).toBe(false);
    expect(data.plans.map((p: { rank: string }) => p.rank)).toEqual([
      'Free',
      'STARTER',
      'BASIC',
      'ADVANCED',
      'UNLIMITED',
      'Enterprise',
    ]);
    const starter = data.plans[1];
    expect(starter.prices.monthly).toEqual({ amount: 900, currency: 'usd' });
    expect(starter.purchasable).toEqual({ monthly: false, yearly: false });
  });

  it('refuses checkout and webhooks with a translated "not configured"', async () => {
    const u = await signedInUser(h.db);
    const res = await h.app.request('/self-api/v1/billing/checkout', {
      method: 'POST',
      headers: { ...u.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ rank: 'STARTER', interval: 'monthly' }),
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 50311, message_key: 'errors.billing.notConfigured' });
    const hook = await h.app.request('/webhooks/stripe', { method: 'POST', body: '{}' });
    expect(hook.status).toBe(503);
  });
});

describe('billing with Stripe', () => {
  let h: Awaited<ReturnType<typeof testApp>>;
  let stripe: FakeStripe;
  const clock = new Date('2026-11-22T12:00:00Z');

  beforeAll(async () => {
    stripe = await startFakeStripe();
    stripe.addPrice('price_starter_m', 1000, 'eur');
    h = await testApp({}, stripe.env(SECRET, PRICES), { now: () => clock });
  });
  afterAll(async () => {
    await h.close();
    await stripe.close();
  });

  const post = (path: string, headers: Record<string, string>, body: unknown) =>
    h.app.request(path, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const deliver = async (
    type: string,
    object: Record<string, unknown>,
    opts: { id?: string; created?: number } = {},
  ) => {
    const e = signedEvent(SECRET, type, object, opts);
    const res = await h.app.request('/webhooks/stripe', {
      method: 'POST',
      headers: { 'stripe-signature': e.signature, 'content-type': 'application/json' },
      body: e.body,
    });
    return { status: res.status, json: await res.json(), id: e.id };
  };
  const rankOf = async (id: string) =>
    (await h.db.select({ r: users.rankName }).from(users).where(eq(users.id, id)))[0]!.r;
  const sec = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

  it('shows the configured prices as Stripe holds them', async () => {
    const { data } = await (await h.app.request('/self-api/v1/billing/plans')).json();
    expect(data.payments_enabled).toBe(true);
    const starter = data.plans.find((p: { rank: string }) => p.rank === 'STARTER');
    expect(starter.prices.monthly).toEqual({ amount: 1000, currency: 'eur' });
    expect(starter.purchasable).toEqual({ monthly: true, yearly: true });
    const advanced = data.plans.find((p: { rank: string }) => p.rank === 'ADVANCED');
    expect(advanced.purchasable).toEqual({ monthly: false, yearly: false });
  });

  it('opens Checkout with the user id and referral code, creating the customer once', async () => {
    const u = await signedInUser(h.db);
    await h.db.update(users).set({ referralCode: 'FRIEND42' }).where(eq(users.id, u.user.id));
    const res = await post('/self-api/v1/billing/checkout', u.headers, {
      rank: 'STARTER',
      interval: 'monthly',
      lang: 'de',
    });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.url).toMatch(new RegExp(`^${stripe.url}/checkout/cs_test_`));
    const call = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(call.params).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_starter_m',
      client_reference_id: u.user.id,
      'metadata[user_id]': u.user.id,
      'metadata[referral_code]': 'FRIEND42',
      'subscription_data[metadata][user_id]': u.user.id,
      'subscription_data[metadata][referral_code]': 'FRIEND42',
      locale: 'de',
    });
    expect(call.params.success_url).toBe('http://localhost/de/pay-success?session_id={CHECKOUT_SESSION_ID}');
    expect(call.params.cancel_url).toBe('http://localhost/de/pricing?canceled=1');

    await post('/self-api/v1/billing/checkout', u.headers, { rank: 'STARTER', interval: 'yearly' });
    const customerCalls = stripe.requests.filter((r) => r.path === '/v1/customers');
    expect(customerCalls.filter((r) => r.params['metadata[user_id]'] === u.user.id)).toHaveLength(1);
    expect(customerCalls.at(-1)!.idempotencyKey).toBe(`customer-${u.user.id}`);
  });

  it('refuses bad plans, anonymous callers and plans without a price', async () => {
    const u = await signedInUser(h.db);
    const bad = await post('/self-api/v1/billing/checkout', u.headers, { rank: 'GOLD', interval: 'monthly' });
    expect(bad.status).toBe(422);
    expect((await bad.json()).data.field_keys.rank).toBe('errors.billing.badPlan');
    const anon = await post(
      '/self-api/v1/billing/checkout',
      { origin: 'http://localhost' },
      { rank: 'STARTER', interval: 'monthly' },
    );
    expect(anon.status).toBe(401);
    const none = await post('/self-api/v1/billing/checkout', u.headers, {
      rank: 'ADVANCED',
      interval: 'monthly',
    });
    expect(none.status).toBe(404);
    expect((await none.json()).code).toBe(40413);
  });

  it('refuses webhooks whose signature does not match', async () => {
    const e = signedEvent('whsec_someone_else', 'customer.subscription.created', { id: 'sub_x' });
    const wrongKey = await h.app.request('/webhooks/stripe', {
      method: 'POST',
      headers: { 'stripe-signature': e.signature },
      body: e.body,
    });
    expect(wrongKey.status).toBe(400);
    expect((await wrongKey.json()).code).toBe(40011);
    const good = signedEvent(SECRET, 'customer.subscription.created', { id: 'sub_x' });
    const tampered = await h.app.request('/webhooks/stripe', {
      method: 'POST',
      headers: { 'stripe-signature': good.signature },
      body: good.body.replace('sub_x', 'sub_y'),
    });
    expect(tampered.status).toBe(400);
    const unsigned = await h.app.request('/webhooks/stripe', { method: 'POST', body: good.body });
    expect(unsigned.status).toBe(400);
  });

  it('applies a paid Checkout once: rank, quota period, order; replays change nothing', async () => {
    const u = await signedInUser(h.db);
    const res = await post('/self-api/v1/billing/checkout', u.headers, {
      rank: 'STARTER',
      interval: 'monthly',
    });
    const sessionId = new URL((await res.json()).data.url).pathname.split('/').pop()!;
    const now = sec('2026-11-20T08:00:00Z');
    const paid = stripe.completeCheckout(sessionId, now);

    const first = await deliver('checkout.session.completed', paid.session);
    expect(first.json.data.outcome).toBe('applied');
    expect(await rankOf(u.user.id)).toBe('STARTER');
    const me = await (await h.app.request('/common-api/v1/user', { headers: u.headers })).json();
    expect(me.data.user.rank_name).toBe('STARTER');
    expect(me.data.permissions_quota.minutes_per_month).toBe(300);
    expect(me.data.permissions_quota.period_start).toBe('2026-11-20T08:00:00.000Z');
    expect(me.data.permissions_quota.period_end).toBe('2026-12-20T08:00:00.000Z');

    const invoice = await deliver('invoice.paid', paid.invoice);
    expect(invoice.status).toBe(200);
    const again = signedEvent(SECRET, 'invoice.paid', paid.invoice, { id: invoice.id });
    const replay = await h.app.request('/webhooks/stripe', {
      method: 'POST',
      headers: { 'stripe-signature': again.signature },
      body: again.body,
    });
    expect((await replay.json()).data.outcome).toBe('duplicate');
    // Even a second event id for the same invoice records one payment.
    await deliver('invoice.paid', paid.invoice);
    const rows = await h.db.select().from(orders).where(eq(orders.userId, u.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'payment',
      amount: 1000,
      currency: 'usd',
      rank: 'STARTER',
      interval: 'monthly',
      stripeInvoiceId: paid.invoice.id,
      stripeSubscriptionId: paid.subscription.id,
    });
    expect(rows[0]!.periodStart).toEqual(new Date('2026-11-20T08:00:00Z'));

    const status = await (await h.app.request('/self-api/v1/billing/status', { headers: u.headers })).json();
    expect(status.data).toMatchObject({
      rank_name: 'STARTER',
      has_customer: true,
      subscription: { rank: 'STARTER', interval: 'monthly', status: 'active', payment_failed: false },
    });
    const list = await (await h.app.request('/self-api/v1/billing/orders', { headers: u.headers })).json();
    expect(list.data.orders).toEqual([
      expect.objectContaining({ kind: 'payment', amount: 1000, rank: 'STARTER' }),
    ]);

    // Subscribed: a second Checkout would bill twice; the portal is the way to change plan.
    const twice = await post('/self-api/v1/billing/checkout', u.headers, {
      rank: 'BASIC',
      interval: 'monthly',
    });
    expect(twice.status).toBe(409);
    const portal = await post('/self-api/v1/billing/portal', u.headers, { lang: 'ja' });
    expect((await portal.json()).data.url).toMatch(/\/portal\/bps_/);
    const portalCall = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!;
    expect(portalCall.params).toMatchObject({ return_url: 'http://localhost/ja/profile', locale: 'ja' });
  });

  it('ends up right whatever order subscription events arrive in', async () => {
    const u = await signedInUser(h.db);
    const customer = `cus_${u.user.id.slice(0, 8)}`;
    await h.db.update(users).set({ stripeCustomerId: customer }).where(eq(users.id, u.user.id));
    const base = {
      customer,
      periodStart: sec('2026-11-01T00:00:00Z'),
      periodEnd: sec('2026-12-01T00:00:00Z'),
    };

    // Upgraded to BASIC: the "updated" event comes before "created".
    const sub = subscriptionObject({ ...base, price: 'price_basic_m' });
    stripe.subscriptions.set(String(sub.id), sub);
    await deliver('customer.subscription.updated', sub, { created: 2000 });
    await deliver('customer.subscription.created', { ...sub, items: { data: [] } }, { created: 1000 });
    expect(await rankOf(u.user.id)).toBe('BASIC');

    // Cancelled: "deleted" first, then a late "updated" from before — still Free.
    const gone = subscriptionObject({
      ...base,
      id: String(sub.id),
      price: 'price_basic_m',
      status: 'canceled',
    });
    stripe.subscriptions.set(String(sub.id), gone);
    await deliver('customer.subscription.deleted', gone, { created: 4000 });
    await deliver('customer.subscription.updated', sub, { created: 3000 });
    expect(await rankOf(u.user.id)).toBe('Free');
    const [row] = await h.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, String(sub.id)));
    expect(row).toMatchObject({ status: 'canceled', eventAt: 4000 });
  });

  it('records an invoice paid before the subscription is known, and flags failed payments', async () => {
    const u = await signedInUser(h.db);
    const customer = `cus_f${u.user.id.slice(0, 8)}`;
    await h.db.update(users).set({ stripeCustomerId: customer }).where(eq(users.id, u.user.id));
    const period = { periodStart: sec('2026-11-05T00:00:00Z'), periodEnd: sec('2027-11-05T00:00:00Z') };
    const sub = subscriptionObject({ customer, price: 'price_unlimited_y', ...period });
    stripe.subscriptions.set(String(sub.id), sub);
    const inv = invoiceObject({
      customer,
      subscription: String(sub.id),
      price: 'price_unlimited_y',
      amountPaid: 79000,
      tax: 12600,
      ...period,
    });
    stripe.invoices.set(String(inv.id), inv);
    await deliver('invoice.paid', inv);
    await deliver('customer.subscription.created', sub);
    expect(await rankOf(u.user.id)).toBe('UNLIMITED');
    const [order] = await h.db.select().from(orders).where(eq(orders.userId, u.user.id));
    expect(order).toMatchObject({ amount: 79000, tax: 12600, rank: 'UNLIMITED', interval: 'yearly' });

    const failed = invoiceObject({
      customer,
      subscription: String(sub.id),
      price: 'price_unlimited_y',
      amountPaid: 79000,
      status: 'open',
      ...period,
    });
    stripe.invoices.set(String(failed.id), failed);
    await deliver('invoice.payment_failed', failed);
    const status = await (await h.app.request('/self-api/v1/billing/status', { headers: u.headers })).json();
    expect(status.data.subscription.payment_failed).toBe(true);
    stripe.invoices.set(String(failed.id), { ...failed, status: 'paid', amount_paid: 79000 });
    await deliver('invoice.paid', failed);
    const after = await (await h.app.request('/self-api/v1/billing/status', { headers: u.headers })).json();
    expect(after.data.subscription.payment_failed).toBe(false);
    expect(await h.db.select().from(orders).where(eq(orders.userId, u.user.id))).toHaveLength(2);
  });

  it('records refunds step by step, once each, and waits for the payment they refund', async () => {
    const u = await signedInUser(h.db);
    const customer = `cus_r${u.user.id.slice(0, 8)}`;
    await h.db.update(users).set({ stripeCustomerId: customer }).where(eq(users.id, u.user.id));
    const period = { periodStart: sec('2026-11-10T00:00:00Z'), periodEnd: sec('2026-12-10T00:00:00Z') };
    const inv = invoiceObject({
      customer,
      subscription: 'sub_refund',
      price: 'price_starter_m',
      amountPaid: 1000,
      tax: 200,
      paymentIntent: `pi_${u.user.id.slice(0, 8)}`,
      ...period,
    });
    stripe.invoices.set(String(inv.id), inv);
    const partial = chargeObject({
      customer,
      paymentIntent: `pi_${u.user.id.slice(0, 8)}`,
      amount: 1000,
      amountRefunded: 400,
    });

    // The refund arrives before its payment: refused (Stripe redelivers it), nothing recorded.
    const early = await deliver('charge.refunded', partial);
    expect(early.status).toBe(409);
    expect(await h.db.select().from(orders).where(eq(orders.userId, u.user.id))).toHaveLength(0);

    await deliver('invoice.paid', inv);
    const redelivered = signedEvent(SECRET, 'charge.refunded', partial, { id: early.id });
    const ok = await h.app.request('/webhooks/stripe', {
      method: 'POST',
      headers: { 'stripe-signature': redelivered.signature },
      body: redelivered.body,
    });
    expect((await ok.json()).data.outcome).toBe('applied');
    await deliver('charge.refunded', { ...partial, amount_refunded: 1000, refunded: true });
    // The same cumulative state under a new event id records nothing more.
    await deliver('charge.refunded', { ...partial, amount_refunded: 1000, refunded: true });
    const refunds = (await h.db.select().from(orders).where(eq(orders.userId, u.user.id)))
      .filter((o) => o.kind === 'refund')
      .sort((a, b) => b.amount - a.amount);
    expect(refunds.map((r) => [r.amount, r.tax])).toEqual([
      [600, 120],
      [400, 80],
    ]);
    const [payment] = (await h.db.select().from(orders).where(eq(orders.userId, u.user.id))).filter(
      (o) => o.kind === 'payment',
    );
    expect(refunds.every((r) => r.paymentOrderId === payment!.id)).toBe(true);
  });

  it('cancels the subscription before deleting an account, and keeps the account if Stripe fails', async () => {
    const u = await signedInUser(h.db);
    const res = await post('/self-api/v1/billing/checkout', u.headers, {
      rank: 'STARTER',
      interval: 'monthly',
    });
    const sessionId = new URL((await res.json()).data.url).pathname.split('/').pop()!;
    const paid = stripe.completeCheckout(sessionId);
    await deliver('checkout.session.completed', paid.session);
    const remove = () =>
      h.app.request('/common-api/v1/user', {
        method: 'PUT',
        headers: { ...u.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ delete: true, confirm_email: u.user.email }),
      });
    stripe.failing = true;
    try {
      expect((await remove()).status).toBe(502);
    } finally {
      stripe.failing = false;
    }
    expect(await rankOf(u.user.id)).toBe('STARTER');
    expect((await remove()).status).toBe(200);
    expect(stripe.subscriptions.get(String(paid.subscription.id))!.status).toBe('canceled');
    expect(await h.db.select().from(users).where(eq(users.id, u.user.id))).toHaveLength(0);
  });

  it('keeps payment records when the account is deleted', async () => {
    const u = await signedInUser(h.db);
    await h.db.insert(orders).values({
      userId: u.user.id,
      email: u.user.email,
      kind: 'payment',
      amount: 900,
      currency: 'usd',
      stripeInvoiceId: `in_keep_${u.user.id}`,
      paidAt: clock,
    });
    await h.db.delete(users).where(eq(users.id, u.user.id));
    const [kept] = await h.db
      .select()
      .from(orders)
      .where(eq(orders.stripeInvoiceId, `in_keep_${u.user.id}`));
    expect(kept).toMatchObject({ userId: null, email: u.user.email, amount: 900 });
  });

  it('answers 502 when Stripe cannot be reached, without half-made state', async () => {
    const u = await signedInUser(h.db);
    stripe.failing = true;
    try {
      const res = await post('/self-api/v1/billing/checkout', u.headers, {
        rank: 'STARTER',
        interval: 'monthly',
      });
      expect(res.status).toBe(502);
      expect((await res.json()).message_key).toBe('errors.billing.stripeUnavailable');
    } finally {
      stripe.failing = false;
    }
    const [row] = await h.db.select().from(users).where(eq(users.id, u.user.id));
    expect(row!.stripeCustomerId).toBeNull();
  });
});
