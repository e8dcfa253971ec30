import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP_UA, GOOGLEBOT_UA, launch, newContext } from './browser';

const base = inject('baseUrl');
const de = JSON.parse(readFileSync('app/locales/de.json', 'utf8')) as {
  auth: { login: { heading: string } };
};
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('locale routing', () => {
  it('redirects by the i18n_redirected cookie', async () => {
    const ctx = await newContext(browser);
    await ctx.addCookies([{ name: 'i18n_redirected', value: 'fr', url: base }]);
    const page = await ctx.newPage();
    await page.goto(`${base}/pricing`);
    expect(new URL(page.url()).pathname).toBe('/fr/pricing');
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    await ctx.close();
  });

  it('redirects by Accept-Language on a first visit and remembers the choice', async () => {
    const ctx = await newContext(browser, { locale: 'ja-JP', acceptLanguage: 'ja,en;q=0.5' });
    const page = await ctx.newPage();
    await page.goto(`${base}/`);
    expect(new URL(page.url()).pathname).toBe('/ja');
    const cookies = await ctx.cookies(base);
    expect(cookies.find((c) => c.name === 'i18n_redirected')?.value).toBe('ja');
    await ctx.close();
  });

  it('never redirects a crawler', async () => {
    const ctx = await newContext(browser, { userAgent: GOOGLEBOT_UA, acceptLanguage: 'de' });
    await ctx.addCookies([{ name: 'i18n_redirected', value: 'ko', url: base }]);
    const page = await ctx.newPage();
    const res = await page.goto(`${base}/pricing`);
    expect(res?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/pricing');
    await ctx.close();
  });

  it('renders /de/login in German and /en/… moves permanently to the unprefixed path', async () => {
    const ctx = await newContext(browser, { acceptLanguage: 'de' });
    const page = await ctx.newPage();
    await page.goto(`${base}/de/login`);
    expect(await page.textContent('h1')).toBe(de.auth.login.heading);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    const res = await page.request.get(`${base}/en/pricing`, { maxRedirects: 0 });
    expect(res.status()).toBe(301);
    expect(res.headers().location).toBe('/pricing');
    await ctx.close();
  });

  it('switches language on the current page', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await page.goto(`${base}/terms`);
    await page.locator('[data-testid=language-switcher]:visible').selectOption('es');
    await page.waitForURL(`${base}/es/terms`);
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe('es');
    expect((await ctx.cookies(base)).find((c) => c.name === 'i18n_redirected')?.value).toBe('es');
    await ctx.close();
  });
});

describe('guards and errors', () => {
  it('sends an anonymous visitor of /dashboard to login with from', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await page.goto(`${base}/dashboard`);
    expect(page.url()).toBe(`${base}/login?from=%2Fdashboard`);
    await ctx.close();
    const german = await newContext(browser, { acceptLanguage: 'de' });
    const p2 = await german.newPage();
    await p2.goto(`${base}/de/affiliate/Assets`);
    expect(p2.url()).toBe(`${base}/de/login?from=%2Fde%2Faffiliate%2FAssets`);
    await german.close();
  });

  it('shows the 404 texts for unknown routes and malformed ids', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    const res = await page.goto(`${base}/no/such/page?x=1`);
    expect(res?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('Page Not Found');
    expect(await page.textContent('[data-testid=error-description]')).toBe(
      'Page not found: /no/such/page?x=1',
    );
    const share = await page.goto(`${base}/transcript/share/not-a-uuid/abc`);
    expect(share?.status()).toBe(404);
    expect(await page.textContent('[data-testid=error-description]')).toBe(
      'Page Not Found: /transcript/share/not-a-uuid/abc',
    );
    await ctx.close();
  });

  it('stores ?ref in the referral cookie only when none is set', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await page.goto(`${base}/pricing?ref=FIRST1`);
    await page.goto(`${base}/pricing?ref=SECOND2`);
    const ref = (await ctx.cookies(base)).find((c) => c.name === 'clipscribe_REF_CODE');
    expect(ref?.value).toBe('FIRST1');
    expect(ref!.expires * 1000 - Date.now()).toBeGreaterThan(89 * 24 * 3600 * 1000);
    await ctx.close();
  });
});

describe('small screens', () => {
  it('fits a 375 px wide phone without sideways scrolling', async () => {
    for (const path of ['/', '/fr', '/de/login', '/vi/pricing']) {
      const ctx = await browser.newContext({ viewport: { width: 375, height: 700 }, userAgent: DESKTOP_UA });
      const page = await ctx.newPage();
      await page.goto(`${base}${path}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
      await ctx.close();
    }
  });
});

describe('navigation', () => {
  it('shows the progress bar while a navigation loads', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await page.goto(`${base}/`);
    await page.waitForFunction(() => document.querySelector('header a[href="/pricing"]') !== null);
    // The page's data is held back until the bar has been seen.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/pricing.data*', async (route) => {
      await held;
      await route.continue();
    });
    await page.click('header nav a[href="/pricing"]');
    await page.waitForSelector('#nprogress .bar', { state: 'attached', timeout: 5000 });
    release();
    await page.waitForURL(`${base}/pricing`);
    await page.waitForSelector('#nprogress', { state: 'detached', timeout: 5000 });
    await ctx.close();
  });

  it('reloads the page on the next navigation after the build id changed', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await page.route('**/builds/latest.json*', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ id: 'a-newer-build', timestamp: 1 }),
      }),
    );
    const polled = page.waitForRequest((r) => r.url().includes('/builds/latest.json?timestamp='));
    await page.goto(`${base}/`);
    await polled;
    await page.evaluate(() => {
      (window as unknown as { __marker: number }).__marker = 1;
    });
    const documentRequest = page.waitForRequest(
      (r) => r.resourceType() === 'document' && r.url().endsWith('/pricing'),
    );
    await page.click('header nav a[href="/pricing"]');
    await documentRequest;
    // The client-side navigation may commit the URL before the full load replaces the page.
    await expect
      .poll(async () => {
        try {
          return await page.evaluate(
            () => (window as unknown as { __marker?: number }).__marker ?? 'fresh page',
          );
        } catch {
          return 'navigating';
        }
      })
      .toBe('fresh page');
    expect(new URL(page.url()).pathname).toBe('/pricing');
    await ctx.close();
  });
});
