import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { commissions, settlements, users } from '../db/schema';
import { createSession } from '../modules/auth/sessions';
import { markPayoutPaid, rejectPayout } from '../modules/affiliate/payouts';
import { testApp } from '../test/harness';
import { signedInUser } from '../test/users';
import { waitFor } from '../test/wait';
import { chargeObject, signedEvent, startFakeStripe, type FakeStripe } from '../test/fake-stripe';

const SECRET = 'whsec_aff';
const DAY = 86_400_000;
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
let h: Awaited<ReturnType<typeof testApp>>;
let stripe: FakeStripe;
let clock = new Date('2026-11-01T10:00:00Z');

beforeAll(async () => {
  stripe = await startFakeStripe();
  stripe.addPrice('price_unl_y', 79000, 'usd');
  h = await testApp(
    {},
    { ...stripe.env(SECRET, { STRIPE_PRICE_UNLIMITED_YEARLY: 'price_unl_y' }), TRUST_PROXY: 'true' },
    { now: () => clock },
  );
});
afterAll(async () => {
  await h.close();
  await stripe.close();
});

const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
  const res = await h.app.request(`/common-api/v1/distribution${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
};
const deliver = async (type: string, object: Record<string, unknown>) => {
  const e = signedEvent(SECRET, type, object, { created: Math.floor(clock.getTime() / 1000) });
  const res = await h.app.request('/webhooks/stripe', {
    method: 'POST',
    headers: { 'stripe-signature': e.signature },
    body: e.body,
  });
  expect(res.status).toBe(200);
};

/** A visitor who signs up with the referral cookie (the real signup call), then gets a session. */
async function referredSignup(email: string, code: string) {
  const res = await h.app.request('/common-api/v1/signup', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: 'http://localhost',
      cookie: `clipscribe_REF_CODE=${code}`,
      'x-forwarded-for': `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    },
    body: JSON.stringify({ email, password: 'a long secret 42' }),
  });
  expect(res.status).toBe(200);
  // The account row is written by the account-mail job, just after the answer.
  const user = await waitFor(async () => (await h.db.select().from(users).where(eq(users.email, email)))[0], {
    what: `the account row of ${email}`,
  });
  await h.db.update(users).set({ emailVerified: true, createdAt: clock }).where(eq(users.id, user!.id));
  const token = await createSession(h.db, user!.id, {}, clock);
  return { user: user!, headers: { cookie: `token=${token}`, origin: 'http://localhost' } };
}

/** Buys UNLIMITED yearly (USD 790) through Checkout and the signed webhooks. */
async function pays(headers: Record<string, string>) {
  const res = await h.app.request('/self-api/v1/billing/checkout', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ rank: 'UNLIMITED', interval: 'yearly' }),
  });
  const sessionId = new URL((await res.json()).data.url).pathname.split('/').pop()!;
  const paid = stripe.completeCheckout(sessionId, Math.floor(clock.getTime() / 1000));
  await deliver('checkout.session.completed', paid.session);
  await deliver('invoice.paid', paid.invoice);
  return paid;
}

async function becomeAffiliate(code?: string) {
  const a = await signedInUser(h.db);
  const res = await call('POST', '', a.headers, {
    accept_terms: true,
    website: 'https://videos.example',
    channel: 'youtube',
    code,
  });
  expect(res.status).toBe(200);
  return { ...a, code: res.json.data.distribution_code as string };
}

describe('applying', () => {
  it('needs the terms, gives a generated code or a chosen free one, once', async () => {
    const u = await signedInUser(h.db);
    const noTerms = await call('POST', '', u.headers, { accept_terms: false });
    expect(noTerms.status).toBe(422);
    const first = await call('POST', '', u.headers, { accept_terms: true });
    expect(first.json.data.distribution_code).toMatch(/^[A-Z0-9]{8}$/);
    expect(first.json.data.programme).toEqual({
      commission_percent: 30,
      window_months: 12,
      hold_days: 30,
      minimum_payout: 5000,
    });
    expect((await call('POST', '', u.headers, { accept_terms: true })).status).toBe(409);

    const other = await signedInUser(h.db);
    const taken = await call(
      'GET',
      `/check-code?code=${first.json.data.distribution_code.toLowerCase()}`,
      other.headers,
    );
    expect(taken.json.data).toEqual({ valid: true, available: false });
    expect((await call('GET', '/check-code?code=a!', other.headers)).json.data).toEqual({
      valid: false,
      available: false,
    });
    const clash = await call('POST', '', other.headers, {
      accept_terms: true,
      code: first.json.data.distribution_code,
    });
    expect(clash.status).toBe(409);
    const mine = await call('POST', '', other.headers, { accept_terms: true, code: 'mychannel' });
    expect(mine.json.data.distribution_code).toBe('MYCHANNEL');
    const campaign = await call('POST', '/code', other.headers, { label: 'Spring video' });
    const list = await call('GET', '/get-code-list', other.headers);
    expect(list.json.data.codes.map((c: { code: string }) => c.code)).toEqual([
      'MYCHANNEL',
      campaign.json.data.code,
    ]);
    // Not an affiliate: an ordinary answer (no error status for the browser to log).
    const none = await call('GET', '/show', (await signedInUser(h.db)).headers);
    expect(none.status).toBe(200);
    expect(none.json.data).toBeNull();
  });
});

describe('referral clicks', () => {
  it('counts a visitor once per code per 24 hours, ignoring crawlers and unknown codes', async () => {
    const a = await becomeAffiliate();
    const click = async (ip: string, ua = CHROME, code = a.code) =>
      (
        await h.app.request('/common-api/v1/distribution/click', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: 'http://localhost',
            'x-forwarded-for': ip,
            'user-agent': ua,
          },
          body: JSON.stringify({ distribution_code: code }),
        })
      ).json();
    expect((await click('1.1.1.1')).data.counted).toBe(true);
    expect((await click('1.1.1.1')).data.counted).toBe(false);
    expect((await click('2.2.2.2')).data.counted).toBe(true);
    expect((await click('3.3.3.3', 'Googlebot/2.1 (+http://www.google.com/bot.html)')).data.counted).toBe(
      false,
    );
    expect(await click('4.4.4.4', CHROME, 'NOSUCHCODE')).toEqual({
      code: 200,
      message: 'ok',
      data: { counted: false },
    });
    clock = new Date(clock.getTime() + DAY + 1000);
    expect((await click('1.1.1.1')).data.counted).toBe(true);
    const codes = await call('GET', '/get-code-list', a.headers);
    expect(codes.json.data.codes).toEqual([expect.objectContaining({ code: a.code, clicks: 3, signups: 0 })]);
    const clicks = await call('GET', '/record-list?type=click&page_size=2', a.headers);
    expect(clicks.json.data).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(clicks.json.data.items).toHaveLength(2);
  });

  it('counts one click per address per day whatever the User-Agent, also when they race', async () => {
    const a = await becomeAffiliate();
    const click = async (ua: string) =>
      (
        (await (
          await h.app.request('/common-api/v1/distribution/click', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              origin: 'http://localhost',
              'x-forwarded-for': '9.9.9.9',
              'user-agent': ua,
            },
            body: JSON.stringify({ distribution_code: a.code }),
          })
        ).json()) as { data: { counted: boolean } }
      ).data.counted;
    const agents = [1, 2, 3, 4, 5].map((i) => CHROME.replace('Chrome/', `Chrome/${i}`));
    const sequential = [await click(agents[0]!), await click(agents[1]!), await click(agents[2]!)];
    expect(sequential).toEqual([true, false, false]);
    clock = new Date(clock.getTime() + DAY + 1000);
    const raced = await Promise.all(agents.map((ua) => click(ua)));
    expect(raced.filter(Boolean)).toHaveLength(1);
  });
});

describe('attribution and commissions', () => {
  it('runs from signup through payment, holding period, payout request and payment', async () => {
    const a = await becomeAffiliate('CREATOR1');
    const b = await referredSignup(`buyer-${Date.now()}@example.com`, 'creator1');
    expect(b.user).toMatchObject({ referralCode: 'CREATOR1', referredBy: a.user.id });

    await pays(b.headers);
    const [row] = await h.db.select().from(commissions).where(eq(commissions.affiliateId, a.user.id));
    expect(row).toMatchObject({ kind: 'commission', amount: 23700, currency: 'usd', code: 'CREATOR1' });
    const summary = async () => (await call('GET', '/commission', a.headers)).json.data;
    expect((await summary()).balances).toEqual([
      { currency: 'usd', pending: 23700, available: 0, in_payout: 0, paid: 0 },
    ]);
    expect(await summary()).toMatchObject({ signups: 1, customers: 1 });
    // The chart: twelve months ending with this one, which holds the sign-up and the earnings.
    const { series } = await summary();
    expect(series).toHaveLength(12);
    expect(series.at(-1)).toMatchObject({
      month: clock.toISOString().slice(0, 7),
      signups: 1,
      earnings: 23700,
    });
    expect(series.slice(0, -1).every((m: { earnings: number }) => m.earnings === 0)).toBe(true);

    // Still held: nothing to pay out.
    expect((await call('POST', '/settle', a.headers, {})).status).toBe(403);
    clock = new Date(clock.getTime() + 31 * DAY);
    expect((await summary()).balances[0]).toMatchObject({ pending: 0, available: 23700 });
    const noAccount = await call('POST', '/settle', a.headers, {});
    expect(noAccount.json.code).toBe(40332);
    const bad = await call('POST', '/update-info', a.headers, { paypal_email: 'not-an-email' });
    expect(bad.status).toBe(422);
    await call('POST', '/update-info', a.headers, {
      payment_type: 'paypal',
      paypal_email: 'Payouts@Creator.example',
    });
    const payout = await call('POST', '/settle', a.headers, {});
    expect(payout.json.data).toMatchObject({ amount: 23700, currency: 'usd', status: 'requested' });
    expect((await summary()).balances[0]).toMatchObject({ available: 0, in_payout: 23700 });
    expect((await call('POST', '/settle', a.headers, {})).status).toBe(403);

    await markPayoutPaid(h.db, payout.json.data.id, 'PAYPAL-9XK2', clock);
    await expect(markPayoutPaid(h.db, payout.json.data.id, 'PAYPAL-AGAIN', clock)).rejects.toThrow(
      /No open payout/,
    );
    expect((await summary()).balances[0]).toMatchObject({ in_payout: 0, paid: 23700 });
    const history = (await call('GET', '/settle-list', a.headers)).json.data.settlements;
    expect(history).toEqual([
      expect.objectContaining({
        status: 'paid',
        amount: 23700,
        paypal_email: 'payouts@creator.example',
        paypal_transaction_id: 'PAYPAL-9XK2',
      }),
    ]);

    const [paidRow] = await h.db.select().from(commissions).where(eq(commissions.affiliateId, a.user.id));
    expect(paidRow!.settlementId).toBe(payout.json.data.id);
  });

  it('reverses commissions on refunds, before and after a payout', async () => {
    const a = await becomeAffiliate();
    await call('POST', '/update-info', a.headers, { paypal_email: 'aff@example.com' });
    const b = await referredSignup(`b-${Date.now()}@example.com`, a.code);
    const c = await referredSignup(`c-${Date.now()}@example.com`, a.code);
    const paidB = await pays(b.headers);
    const paidC = await pays(c.headers);
    const intentOf = (paid: { invoice: Record<string, unknown> }) =>
      (paid.invoice.payments as { data: { payment: { payment_intent: string } }[] }).data[0]!.payment
        .payment_intent;
    const customerOf = (paid: { invoice: Record<string, unknown> }) => String(paid.invoice.customer);

    // C refunds half while the commission is still held: the reversal is held with it.
    await deliver(
      'charge.refunded',
      chargeObject({
        customer: customerOf(paidC),
        paymentIntent: intentOf(paidC),
        amount: 79000,
        amountRefunded: 39500,
      }),
    );
    const summary = async () => (await call('GET', '/commission', a.headers)).json.data.balances[0];
    expect(await summary()).toMatchObject({ pending: 23700 * 2 - 11850, available: 0 });

    clock = new Date(clock.getTime() + 31 * DAY);
    const payout = await call('POST', '/settle', a.headers, {});
    expect(payout.json.data.amount).toBe(23700 * 2 - 11850);
    await markPayoutPaid(h.db, payout.json.data.id, 'PAYPAL-1', clock);

    // B refunds in full after the payout: a negative available record.
    await deliver(
      'charge.refunded',
      chargeObject({
        customer: customerOf(paidB),
        paymentIntent: intentOf(paidB),
        amount: 79000,
        amountRefunded: 79000,
      }),
    );
    expect(await summary()).toMatchObject({ available: -23700, paid: 23700 * 2 - 11850 });
    // C's second half: only what is left of its commission is reversed.
    await deliver(
      'charge.refunded',
      chargeObject({
        customer: customerOf(paidC),
        paymentIntent: intentOf(paidC),
        amount: 79000,
        amountRefunded: 79000,
      }),
    );
    expect(await summary()).toMatchObject({ available: -23700 - 11850 });
    const records = (await call('GET', '/record-list?type=commission', a.headers)).json.data.items;
    expect(records.filter((r: { kind: string }) => r.kind === 'reversal')).toHaveLength(3);
  });

  it('pays commission on a team plan’s payment like any other: on what the seats cost', async () => {
    const a = await becomeAffiliate('TEAMS1');
    const b = await referredSignup(`team-buyer-${Date.now()}@example.com`, 'teams1');
    const team = await h.app.request('/self-api/v1/workspaces', {
      method: 'POST',
      headers: { ...b.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Agency' }),
    });
    const ws = (await team.json()).data.id as string;
    const res = await h.app.request('/self-api/v1/billing/checkout', {
      method: 'POST',
      headers: { ...b.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ rank: 'UNLIMITED', interval: 'yearly', workspace_id: ws, seats: 3 }),
    });
    const sessionId = new URL((await res.json()).data.url).pathname.split('/').pop()!;
    const paid = stripe.completeCheckout(sessionId, Math.floor(clock.getTime() / 1000));
    expect(paid.invoice.amount_paid).toBe(3 * 79000);
    await deliver('checkout.session.completed', paid.session);
    await deliver('invoice.paid', paid.invoice);
    const [row] = await h.db.select().from(commissions).where(eq(commissions.affiliateId, a.user.id));
    // 30 % of three seats of UNLIMITED yearly.
    expect(row).toMatchObject({ kind: 'commission', amount: 71100, currency: 'usd', code: 'TEAMS1' });
  });

  it('refuses self-referral and payments after the twelve-month window', async () => {
    const a = await signedInUser(h.db);
    await h.db
      .update(users)
      .set({ email: `jane.doe-${a.user.id.slice(0, 6)}@example.com` })
      .where(eq(users.id, a.user.id));
    const res = await call('POST', '', a.headers, {
      accept_terms: true,
      code: `SELF${a.user.id.slice(0, 4).toUpperCase()}`,
    });
    const code = res.json.data.distribution_code;
    const self = await referredSignup(`janedoe-${a.user.id.slice(0, 6)}+promo@example.com`, code);
    expect(self.user).toMatchObject({ referralCode: null, referredBy: null });

    const late = await referredSignup(`late-${Date.now()}@example.com`, code);
    expect(late.user.referredBy).toBe(a.user.id);
    clock = new Date(clock.getTime() + 370 * DAY);
    await pays(late.headers);
    expect(await h.db.select().from(commissions).where(eq(commissions.affiliateId, a.user.id))).toHaveLength(
      0,
    );
  });

  it('pays one of two payout requests sent at once', async () => {
    const a = await becomeAffiliate();
    await call('POST', '/update-info', a.headers, { paypal_email: 'twice@example.com' });
    const b = await referredSignup(`t-${Date.now()}@example.com`, a.code);
    await pays(b.headers);
    clock = new Date(clock.getTime() + 31 * DAY);
    const results = await Promise.all([
      call('POST', '/settle', a.headers, {}),
      call('POST', '/settle', a.headers, {}),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect([40331, 40933]).toContain(results.find((r) => r.status !== 200)!.json.code);
    const rows = await h.db.select().from(settlements).where(eq(settlements.affiliateId, a.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.amount).toBe(23700);

    // A rejected request gives the balance back for a new one.
    await rejectPayout(h.db, rows[0]!.id, 'PayPal account could not receive payments', clock);
    expect((await call('GET', '/commission', a.headers)).json.data.balances[0]).toMatchObject({
      available: 23700,
      in_payout: 0,
    });
    expect((await call('POST', '/settle', a.headers, {})).status).toBe(200);
  });
});
