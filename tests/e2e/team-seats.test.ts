import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_COOKIE } from '../../common/cookies';
import { signedEvent, startFakeStripe, type FakeStripe } from '../../server/test/fake-stripe';
import { launch, overflows } from './browser';
import { watchConsole } from './console';
import { startServer, type RunningServer } from './server';
import { apiSignup, signedInContext } from './session';

// The owner changes a team's seats from the workspace settings (issue #26, decisions 0043/0044):
// a prorated subscription update through the local Stripe fake, the new count shown at once, and
// an invitation past the seats offering the way to this control. At 1280 and 375 px, English and
// German; screenshots in tmp/team-seats-shots.
const SECRET = 'whsec_e2e_seats';
const SHOTS = 'tmp/team-seats-shots';
let browser: Browser;
let stripe: FakeStripe;
let server: RunningServer;
let owner: Record<string, string>;
let teamId = '';
let subscriptionId = '';

async function api<T = unknown>(method: string, p: string, body?: unknown) {
  const res = await fetch(`${server.url}/self-api/v1${p}`, {
    method,
    headers: { ...owner, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: T };
}

async function deliver(type: string, object: Record<string, unknown>) {
  const e = signedEvent(SECRET, type, object);
  const res = await fetch(`${server.url}/webhooks/stripe`, {
    method: 'POST',
    headers: { 'stripe-signature': e.signature, 'content-type': 'application/json' },
    body: e.body,
  });
  expect(res.status).toBe(200);
}

/** The owner's settings page of the team, at `width`, in `locale`. */
async function settingsPage(width: number, locale = 'en-US') {
  const lang = locale.slice(0, 2);
  const ctx = await signedInContext(browser, server.url, owner.cookie!, {
    locale,
    acceptLanguage: locale,
    viewport: { width, height: width < 500 ? 812 : 900 },
  });
  await ctx.addCookies([{ name: WORKSPACE_COOKIE, value: teamId, url: server.url }]);
  const page = await ctx.newPage();
  const problems = watchConsole(page);
  await page.goto(`${server.url}${lang === 'en' ? '' : `/${lang}`}/workspace`);
  await page.getByTestId('seats-form').waitFor();
  return { ctx, page, problems };
}

const quantity = () => {
  const sub = stripe.subscriptions.get(subscriptionId)!;
  return (sub.items as { data: { quantity: number }[] }).data[0]!.quantity;
};

async function changeSeats(page: Page, seats: number, button: string) {
  await page.getByTestId('seats-input').fill(String(seats));
  await page.getByTestId('seats-form').getByRole('button', { name: button }).click();
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  stripe = await startFakeStripe();
  stripe.addPrice('price_advanced_m', 7900, 'usd');
  server = await startServer({
    ...stripe.env(SECRET, { STRIPE_PRICE_ADVANCED_MONTHLY: 'price_advanced_m' }),
    TRUST_PROXY: 'true',
    WHISPER_MODEL_AUTO_DOWNLOAD: 'false',
  });
  browser = await launch();
  owner = await apiSignup(server.url, server.dataDir, `seats-owner-${Date.now()}@example.com`);
  const made = await api<{ id: string }>('POST', '/workspaces', { name: 'Studio' });
  teamId = made.data.id;
  // Two seats of ADVANCED (up to 20) for the team, paid in the fake's Checkout.
  const checkout = await api<{ url: string }>('POST', '/billing/checkout', {
    rank: 'ADVANCED',
    interval: 'monthly',
    workspace_id: teamId,
    seats: 2,
  });
  expect(checkout.code).toBe(200);
  const paid = stripe.completeCheckout(new URL(checkout.data.url).pathname.split('/').pop()!);
  subscriptionId = String(paid.subscription.id);
  await deliver('checkout.session.completed', paid.session);
  await deliver('invoice.paid', paid.invoice);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await stripe?.close();
});

describe('the seats of a team workspace', () => {
  it('lets the owner add seats at 1280 px, and leads a refused invitation to them', async () => {
    const { ctx, page, problems } = await settingsPage(1280);
    const count = page.getByTestId('seats-count');
    await expect.poll(() => count.textContent()).toBe('1 of 2 seats taken (members and open invitations)');
    // The second seat goes to an invitation; a third person is refused, with the way to more seats.
    const invite = page.getByTestId('invite-form');
    await invite.getByLabel('Email address').fill('first@example.com');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => count.textContent()).toContain('2 of 2 seats taken');
    await invite.getByLabel('Email address').fill('second@example.com');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Add seats to the subscription' });
    await toast.getByRole('button', { name: 'Manage seats' }).click();
    await page.waitForURL(`${server.url}/workspace#seats`);

    await changeSeats(page, 4, 'Change seats');
    await expect.poll(() => count.textContent()).toContain('2 of 4 seats taken');
    expect(quantity()).toBe(4);
    const update = stripe.requests.filter((r) => r.path === `/v1/subscriptions/${subscriptionId}`).at(-1)!;
    expect(update.params).toMatchObject({
      'items[0][quantity]': '4',
      proration_behavior: 'create_prorations',
    });
    expect(await page.getByText('The plan now has 4 seats.').count()).toBeGreaterThan(0);
    // Below the people on them is refused with the range.
    await changeSeats(page, 1, 'Change seats');
    expect(await page.getByTestId('seats-input').evaluate((i: HTMLInputElement) => i.validity.valid)).toBe(
      false,
    );
    expect(quantity()).toBe(4);
    await page.getByTestId('seats-input').fill('4');
    await shot(page, 'seats-en-1280');
    // The refused invitation's 403 is the one error the browser logs.
    expect(problems.filter((p) => !/403/.test(p))).toEqual([]);
    await ctx.close();
  });

  it('fits a phone at 375 px, where the seats change the same way', async () => {
    const { ctx, page, problems } = await settingsPage(375);
    const count = page.getByTestId('seats-count');
    await expect.poll(() => count.textContent()).toContain('2 of 4 seats taken');
    await changeSeats(page, 3, 'Change seats');
    await expect.poll(() => count.textContent()).toContain('2 of 3 seats taken');
    expect(quantity()).toBe(3);
    expect(await overflows(page)).toBe(false);
    await shot(page, 'seats-en-375');
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('speaks German at 1280 and 375 px', async () => {
    for (const width of [1280, 375]) {
      const { ctx, page, problems } = await settingsPage(width, 'de-DE');
      const count = page.getByTestId('seats-count');
      await expect.poll(() => count.textContent()).toContain('2 von 3 Plätzen belegt');
      if (width === 375) {
        await changeSeats(page, 5, 'Plätze ändern');
        await expect.poll(() => count.textContent()).toContain('2 von 5 Plätzen belegt');
        expect(quantity()).toBe(5);
      }
      expect(await page.getByTestId('seats-form').textContent()).toContain('Abrechnungsportal');
      expect(await overflows(page)).toBe(false);
      await shot(page, `seats-de-${width}`);
      expect(problems).toEqual([]);
      await ctx.close();
    }
  });
});
