import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, newContext } from './browser';
import { mailTo } from './outbox';

const base = inject('baseUrl');
const dataDir = inject('dataDir');
const de = JSON.parse(readFileSync('app/locales/de.json', 'utf8'));
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function register(page: Page, prefix: string, email: string, password: string) {
  await page.goto(`${base}${prefix}/register`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
  await page.waitForURL((u) => u.pathname === `${prefix}/register/verification`);
}

async function logout(page: Page, prefix: string) {
  await page.getByTestId('account-menu').click();
  await page.click('[data-testid=logout]');
  await page.waitForURL(`${base}${prefix || '/'}`);
}

describe('accounts in the browser', () => {
  it('registers, verifies by code, lands on the dashboard, logs out and in again (English)', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    const email = `en-${Date.now()}@example.com`;
    await register(page, '', email, 'my first secret 1');
    const mail = await mailTo(dataDir, email);
    const code = /\b(\d{6})\b/.exec(mail.text ?? '')![1]!;
    await page.fill('input[name=code]', code);
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/dashboard`);
    await page.waitForSelector('[data-testid=nav-dashboard]');

    const cookies = await ctx.cookies(base);
    expect(cookies.find((c) => c.name === 'token')?.httpOnly).toBe(true);
    await expect
      .poll(async () => (await ctx.cookies(base)).find((c) => c.name === 'isLogin')?.value)
      .toBe('1');
    expect(await page.evaluate(() => document.cookie.includes('token='))).toBe(false);

    await logout(page, '');
    expect((await ctx.cookies(base)).find((c) => c.name === 'token')).toBeUndefined();
    await page.goto(`${base}/dashboard`);
    expect(page.url()).toBe(`${base}/login?from=%2Fdashboard`);

    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', 'my first secret 1');
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/dashboard`);
    await page.goto(`${base}/login`);
    expect(page.url()).toBe(`${base}/dashboard`);
    await ctx.close();
  });

  it('registers in German, verifies through the e-mail link, and refuses hostile from values', async () => {
    const ctx = await newContext(browser, { acceptLanguage: 'de' });
    const page = await ctx.newPage();
    const email = `de-${Date.now()}@example.com`;
    await register(page, '/de', email, 'mein geheimnis 2');
    const mail = await mailTo(dataDir, email);
    expect(mail.subject).toMatch(/ClipScribe/);
    const link = /https?:\/\/\S+/.exec(mail.text ?? '')![0];
    expect(new URL(link).pathname).toBe('/de/register/verification');
    await page.goto(link);
    await page.waitForURL(`${base}/de/dashboard`);
    await expect.poll(() => page.textContent('h1')).toBe(de.pages.dashboard.heading);

    await logout(page, '/de');
    for (const hostile of ['//evil.com', 'https://evil.com/x', '/\\evil.com']) {
      await page.goto(`${base}/de/login?from=${encodeURIComponent(hostile)}`);
      await page.fill('input[name=email]', email);
      await page.fill('input[name=password]', 'mein geheimnis 2');
      await page.click('button[type=submit]');
      await page.waitForURL(`${base}/de/dashboard`);
      expect(new URL(page.url()).host).toBe(new URL(base).host);
      await logout(page, '/de');
    }
    await page.goto(`${base}/de/profile`);
    expect(page.url()).toBe(`${base}/de/login?from=%2Fde%2Fprofile`);
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', 'mein geheimnis 2');
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/de/profile`);
    await expect.poll(() => page.textContent('[data-testid=profile-rank]')).toBe(de.ranks.Free);
    await ctx.close();
  });

  it('shows the translated wrong-credentials message', async () => {
    const ctx = await newContext(browser, { acceptLanguage: 'de' });
    const page = await ctx.newPage();
    await page.goto(`${base}/de/login`);
    await page.fill('input[name=email]', 'nobody@example.com');
    await page.fill('input[name=password]', 'wrong password');
    await page.click('button[type=submit]');
    await expect
      .poll(() => page.textContent('[data-testid=form-alert]'))
      .toBe(de.errors.auth.invalidCredentials);
    await ctx.close();
  });
});

describe('Google button', () => {
  it('is hidden without a client ID', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await page.goto(`${base}/login`);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('[data-testid=google-button]').count()).toBe(0);
    await ctx.close();
  });

  it('reports a script that fails to load, in the page language', async () => {
    const { startServer } = await import('./server');
    const server = await startServer({ GOOGLE_CLIENT_ID: 'e2e.apps.googleusercontent.com' });
    try {
      const ctx = await newContext(browser, { acceptLanguage: 'de' });
      const page = await ctx.newPage();
      await page.route('https://accounts.google.com/**', (route) => route.abort());
      await page.goto(`${server.url}/de/login`);
      await page.getByText(de.errors.auth.googleScript).waitFor({ timeout: 10_000 });
      expect(await page.locator('[data-testid=google-button]').count()).toBe(0);
      await ctx.close();
    } finally {
      await server.stop();
    }
  });
});
