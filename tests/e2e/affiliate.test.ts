import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, newContext } from './browser';
import { apiSignup } from './session';

const base = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('affiliate centre', () => {
  it('applies, shows the code, copies a link, counts a referral visit and keeps a PayPal account', async () => {
    const headers = await apiSignup(base, dataDir, `affiliate-${Date.now()}@example.test`);
    const ctx = await newContext(browser);
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const [name, value] = headers.cookie!.split('=') as [string, string];
    await ctx.addCookies([{ name, value, url: base }]);
    const page = await ctx.newPage();

    // Not an affiliate yet: the centre sends the user to the application.
    await page.goto(`${base}/affiliate`);
    await page.waitForURL(`${base}/affiliate/apply`);
    expect(await page.locator('ol li').first().textContent()).toContain('30 %');
    const code = `E2E${Date.now().toString().slice(-6)}`;
    await page.locator('input[name=code]').fill(code.toLowerCase());
    await expect.poll(() => page.getByText('This code is available.').count()).toBe(1);
    await page.getByRole('button', { name: 'Join the programme' }).click();
    expect(await page.getByRole('alert').first().textContent()).toContain('accept the programme terms');
    await page.getByTestId('accept-terms').check();
    await page.getByRole('button', { name: 'Join the programme' }).click();
    await page.waitForURL(`${base}/affiliate/Dashboard`);
    await expect.poll(() => page.getByTestId('stat-clicks').textContent()).toBe('0');

    await page.locator('main nav').getByRole('link', { name: 'Assets' }).click();
    const link = page.locator(`[data-code=${code}] [data-testid=referral-link]`);
    await expect.poll(() => link.textContent()).toBe(`${base}/?ref=${code}`);
    await page.locator(`[data-code=${code}]`).getByRole('button', { name: 'Copy link' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}/?ref=${code}`);
    await page.getByTestId('builder-page').selectOption('/tools/video-to-text');
    expect(await page.getByTestId('built-link').textContent()).toBe(
      `${base}/tools/video-to-text?ref=${code}`,
    );

    // A visitor follows the link: the page sends the click call once.
    const visitor = await newContext(browser);
    const visit = await visitor.newPage();
    const click = visit.waitForResponse((r) => r.url().endsWith('/common-api/v1/distribution/click'));
    await visit.goto(`${base}/?ref=${code}`);
    expect(await (await click).json()).toMatchObject({ data: { counted: true } });
    await visitor.close();
    await page.locator('main nav').getByRole('link', { name: 'Dashboard' }).click();
    await expect.poll(() => page.getByTestId('stat-clicks').textContent()).toBe('1');

    await page.locator('main nav').getByRole('link', { name: 'Settlement' }).click();
    await page.locator('input[name=paypal_email]').fill('not an address');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await page.getByTestId('error-paypal_email').textContent()).toBe('Enter a valid email address.');
    await page.locator('input[name=paypal_email]').fill('Payouts@Example.test');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Payout account saved.').waitFor();
    await page.reload();
    await expect
      .poll(() => page.locator('input[name=paypal_email]').inputValue())
      .toBe('payouts@example.test');
    expect(await page.getByTestId('request-payout').isDisabled()).toBe(true);
    await ctx.close();
  });

  it('shows the tabs in German', async () => {
    const headers = await apiSignup(base, dataDir, `affiliate-de-${Date.now()}@example.test`);
    await fetch(`${base}/common-api/v1/distribution`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ accept_terms: true }),
    });
    const ctx = await newContext(browser, { locale: 'de-DE', acceptLanguage: 'de-DE,de;q=0.9' });
    const [name, value] = headers.cookie!.split('=') as [string, string];
    await ctx.addCookies([{ name, value, url: base }]);
    const page = await ctx.newPage();
    const english = ['Dashboard', 'Assets', 'Details', 'Settlement'];
    for (const tab of english) {
      await page.goto(`${base}/de/affiliate/${tab}`);
      await expect
        .poll(() => page.locator('nav[aria-label] a[aria-current=page]').last().textContent())
        .not.toBe('');
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      expect(await page.locator('h1').textContent()).not.toBe('Affiliate centre');
    }
    const tabs = await page.locator('main nav a').allTextContents();
    expect(tabs).toHaveLength(4);
    expect(tabs.filter((t) => english.includes(t)).length).toBeLessThan(4);
    await expect.poll(() => page.getByTestId('available-balance').textContent()).toMatch(/0\s?\$/);
    await ctx.close();
  });
});
