// Issue #26 part 5: a team's seats go through Stripe's protocol (decision 0043), against the
// local fake: Checkout with quantity = seats, a subscription update or the Portal to change them,
// customer.subscription.updated bringing the quantity back, invitations past them refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { subscriptions } from '../db/schema';
import { testApp } from '../test/harness';
import { signedInUser } from '../test/users';
import { signedEvent, startFakeStripe, type FakeStripe } from '../test/fake-stripe';

const SECRET = 'whsec_seats';
let h: Awaited<ReturnType<typeof testApp>>;
let stripe: FakeStripe;

beforeAll(async () => {
  stripe = await startFakeStripe();
  stripe.addPrice('price_basic_m', 2900, 'usd');
  stripe.addPrice('price_advanced_m', 7900, 'usd');
  h = await testApp(
    {},
    stripe.env(SECRET, {
      STRIPE_PRICE_BASIC_MONTHLY: 'price_basic_m',
      STRIPE_PRICE_ADVANCED_MONTHLY: 'price_advanced_m',
    }),
  );
});
afterAll(async () => {
  await h.close();
  await stripe.close();
});

const deliver = async (type: string, object: Record<string, unknown>) => {
  const e = signedEvent(SECRET, type, object);
  const res = await h.app.request('/webhooks/stripe', {
    method: 'POST',
    headers: { 'stripe-signature': e.signature, 'content-type': 'application/json' },
    body: e.body,
  });
  expect(res.status).toBe(200);
};

/** An account with a team workspace of its own, not subscribed yet. */
async function teamOwner() {
  const owner = await signedInUser(h.db);
  const made = await h.api('POST', '/workspaces', owner.headers, { name: 'Podcast' });
  expect(made.json.code, JSON.stringify(made.json)).toBe(200);
  const ws = made.json.data.id as string;
  const seats = async () => (await h.api('GET', `/workspaces/${ws}`, owner.headers)).json.data.seats;
  const invite = (email: string) =>
    h.api('POST', `/workspaces/${ws}/invitations`, owner.headers, { email, role: 'editor' });
  return { owner, ws, seats, invite };
}

/** Checkout for `seats` seats of BASIC for the team, paid: the subscription's events delivered. */
async function buySeats(t: Awaited<ReturnType<typeof teamOwner>>, seats: number, rank = 'BASIC') {
  const res = await h.api('POST', '/billing/checkout', t.owner.headers, {
    rank,
    interval: 'monthly',
    workspace_id: t.ws,
    seats,
  });
  expect(res.json.code, JSON.stringify(res.json)).toBe(200);
  const sessionId = new URL(res.json.data.url).pathname.split('/').pop()!;
  const paid = stripe.completeCheckout(sessionId);
  await deliver('checkout.session.completed', paid.session);
  await deliver('invoice.paid', paid.invoice);
  return paid;
}

describe('seats through Stripe', () => {
  it('buys seats in Checkout as the quantity, and refuses an invitation past them with the add-seats hint', async () => {
    const t = await teamOwner();
    const paid = await buySeats(t, 2);
    const call = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(call.params).toMatchObject({
      'line_items[0][price]': 'price_basic_m',
      'line_items[0][quantity]': '2',
      'subscription_data[metadata][workspace_id]': t.ws,
    });
    const [row] = await h.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, String(paid.subscription.id)));
    expect(row).toMatchObject({ rank: 'BASIC', quantity: 2 });
    // BASIC has up to 3 seats; this team bought 2, which its owner may change here.
    expect(await t.seats()).toEqual({ taken: 1, total: 2, max: 3, change: 'update' });
    expect((await t.invite('first@example.com')).json.code).toBe(200);
    const refused = await t.invite('second@example.com');
    expect(refused.res.status).toBe(403);
    expect(refused.json).toMatchObject({
      code: 40363,
      message_key: 'errors.workspaces.seatsFullAddSeats',
      data: { seats: 2, add_seats: true, billed: true, rank: null },
    });
    expect(refused.json.message).toMatch(/Add seats to the subscription/);
  });

  it('changes seats with a prorated subscription update, and takes the Portal’s change from the webhook', async () => {
    const t = await teamOwner();
    const paid = await buySeats(t, 2);
    await t.invite('a@example.com');
    const more = await h.api('POST', '/billing/seats', t.owner.headers, { workspace_id: t.ws, seats: 3 });
    expect(more.json, JSON.stringify(more.json)).toMatchObject({ code: 200, data: { seats: 3 } });
    const update = stripe.requests
      .filter((r) => r.method === 'POST' && r.path.startsWith('/v1/subscriptions/'))
      .at(-1)!;
    expect(update.path).toBe(`/v1/subscriptions/${paid.subscription.id}`);
    expect(update.params).toMatchObject({
      'items[0][quantity]': '3',
      proration_behavior: 'create_prorations',
    });
    expect(await t.seats()).toMatchObject({ taken: 2, total: 3 });
    expect((await t.invite('b@example.com')).json.code).toBe(200);
    // Past what the plan has, or below what members and invitations take: a translated 422.
    const tooMany = await h.api('POST', '/billing/seats', t.owner.headers, { workspace_id: t.ws, seats: 4 });
    expect(tooMany.json).toMatchObject({ code: 42211, data: { min: 3, max: 3 } });
    expect(tooMany.json.message).toMatch(/between 3 and 3 seats/);
    const bad = await h.api('POST', '/billing/seats', t.owner.headers, { workspace_id: t.ws, seats: 0 });
    expect(bad.res.status).toBe(422);

    // The Portal opens on the subscription's update page…
    const portal = await h.api('POST', '/billing/portal', t.owner.headers, { flow: 'seats' });
    expect(portal.json.code).toBe(200);
    const session = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!;
    expect(session.params).toMatchObject({
      'flow_data[type]': 'subscription_update',
      'flow_data[subscription_update][subscription]': String(paid.subscription.id),
    });
    // …where the customer goes down to 2 seats; Stripe tells us with customer.subscription.updated.
    const sub = stripe.subscriptions.get(String(paid.subscription.id))!;
    const items = sub.items as { data: Record<string, unknown>[] };
    stripe.subscriptions.set(String(sub.id), {
      ...sub,
      items: { ...items, data: [{ ...items.data[0], quantity: 2 }] },
    });
    await deliver('customer.subscription.updated', stripe.subscriptions.get(String(sub.id))!);
    expect(await t.seats()).toMatchObject({ taken: 3, total: 2 });
    expect((await t.invite('c@example.com')).json.code).toBe(40363);
  });

  it('counts a person once over every team of the plan holder: the bought seats are not had in each', async () => {
    const t = await teamOwner();
    // ADVANCED has up to 20 seats; 3 bought: the owner and two more people, whichever teams they are in.
    await buySeats(t, 3, 'ADVANCED');
    const second = await h.api('POST', '/workspaces', t.owner.headers, { name: 'Agency' });
    expect(second.json.code).toBe(200);
    const ws2 = second.json.data.id as string;
    const invite2 = (email: string) =>
      h.api('POST', `/workspaces/${ws2}/invitations`, t.owner.headers, { email, role: 'viewer' });

    // A person who already has an account and joins the first team.
    const ann = await signedInUser(h.db);
    expect((await t.invite(ann.user.email)).json.code).toBe(200);
    const accepted = await h.api('POST', '/invitations/accept', ann.headers, {
      id: (await h.api('GET', '/invitations', ann.headers)).json.data.items[0].id,
    });
    expect(accepted.json.code, JSON.stringify(accepted.json)).toBe(200);
    // A member sees the count, not the control: only the subscription's account changes it.
    const annSees = await h.api('GET', `/workspaces/${t.ws}`, ann.headers);
    expect(annSees.json.data.seats).toMatchObject({ taken: 2, total: 3, change: null });
    expect((await invite2('bob@example.com')).json.code).toBe(200);
    // Owner, Ann and Bob: the three seats, over both teams.
    expect(await t.seats()).toMatchObject({ taken: 3, total: 3 });
    const third = await invite2('carol@example.com');
    expect(third.res.status).toBe(403);
    expect(third.json).toMatchObject({
      code: 40363,
      message_key: 'errors.workspaces.seatsFullAddSeats',
      data: { seats: 3, add_seats: true, rank: null },
    });
    expect((await t.invite('carol@example.com')).json.code).toBe(40363);
    // The same people in the other team take no new seat: Ann (a member) and Bob (invited).
    expect((await invite2(ann.user.email.toUpperCase())).json.code).toBe(200);
    expect((await t.invite('bob@example.com')).json.code).toBe(200);
    const ws2Seats = (await h.api('GET', `/workspaces/${ws2}`, t.owner.headers)).json.data.seats;
    expect(ws2Seats).toMatchObject({ taken: 3, total: 3 });
    // Ann accepts the second team's invitation although the seats are full: she holds one already.
    const items = (await h.api('GET', '/invitations', ann.headers)).json.data.items as { id: string }[];
    expect(items).toHaveLength(1);
    expect((await h.api('POST', '/invitations/accept', ann.headers, { id: items[0]!.id })).json.code).toBe(
      200,
    );
    // Fewer seats than the people over both teams cannot be bought; one more can.
    const down = await h.api('POST', '/billing/seats', t.owner.headers, { workspace_id: ws2, seats: 2 });
    expect(down.json).toMatchObject({ code: 42211, data: { min: 3, max: 20 } });
    const up = await h.api('POST', '/billing/seats', t.owner.headers, { workspace_id: ws2, seats: 4 });
    expect(up.json).toMatchObject({ code: 200, data: { seats: 4 } });
    expect((await invite2('carol@example.com')).json.code).toBe(200);
    expect((await t.invite('dave@example.com')).json.code).toBe(40363);
  });

  it('lets only the team’s owner buy or change its seats', async () => {
    const t = await teamOwner();
    const other = await signedInUser(h.db);
    const outsider = await h.api('POST', '/billing/checkout', other.headers, {
      rank: 'BASIC',
      interval: 'monthly',
      workspace_id: t.ws,
      seats: 2,
    });
    expect(outsider.json.code).toBe(40461);
    const none = await h.api('POST', '/billing/seats', other.headers, { workspace_id: t.ws, seats: 2 });
    expect(none.json.code).toBe(40414);
    const noFlow = await h.api('POST', '/billing/portal', t.owner.headers, { flow: 'seats' });
    expect([40412, 40414]).toContain(noFlow.json.code);
  });
});
