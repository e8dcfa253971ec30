import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DESKTOP_UA, GOOGLEBOT_UA, launch } from './browser';
import { apiSignup } from './session';
import { mailTo } from './outbox';

// Reproductions of what an outside security probe found, run against the production build.
const base = inject('baseUrl');
const dataDir = inject('dataDir');
const browserHeaders = { 'user-agent': DESKTOP_UA };

describe('redirects stay on this origin', () => {
  it('never answers a Location (header or data redirect) that leaves the site', async () => {
    const paths = [
      '/en//evil.example/login',
      '/en//evil.example/x.png',
      '/en//evil.example/login.data',
      '/en/.//evil.example',
      '/de//evil.example/login',
      '//evil.example/login',
      '/de//affiliate',
    ];
    for (const path of paths) {
      for (const cookie of ['', 'i18n_redirected=en', 'i18n_redirected=de']) {
        const res = await fetch(base + path, {
          redirect: 'manual',
          headers: { ...browserHeaders, cookie },
        });
        const location = res.headers.get('location');
        if (location) {
          expect(new URL(location, base).origin, `${path} [${cookie}] → ${location}`).toBe(base);
        }
        if (path.endsWith('.data')) {
          // Single-fetch redirects travel inside the body.
          expect(await res.text(), path).not.toContain('"//evil.example');
        }
      }
    }
  });
});

describe('forms post, and work before the page is hydrated', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const formTags = (html: string) => html.match(/<form\b[^>]*>/g) ?? [];

  it('renders every form that holds a password or personal data with method="post"', async () => {
    const session = await apiSignup(base, dataDir, `forms-${Date.now()}@example.com`);
    const pages: [string, Record<string, string>][] = [
      ['/login', {}],
      ['/de/register', {}],
      ['/forgetPassword', {}],
      ['/resetPassword?token=abc', {}],
      ['/register/verification', {}],
      ['/register/verification?email=a%40example.com', {}],
      ['/profile', session],
      ['/affiliate/apply', session],
    ];
    for (const [path, headers] of pages) {
      const html = await (await fetch(base + path, { headers: { ...browserHeaders, ...headers } })).text();
      const forms = formTags(html);
      if (!path.startsWith('/affiliate') && !path.startsWith('/profile'))
        expect(forms.length, path).toBeGreaterThan(0);
      for (const tag of forms) expect(tag, path).toMatch(/method="post"/);
    }
  });

  it('logs in without JavaScript: no password in the address, the session is set', async () => {
    const email = `nojs-${Date.now()}@example.com`;
    await apiSignup(base, dataDir, email);
    const context = await browser.newContext({ javaScriptEnabled: false, userAgent: DESKTOP_UA });
    const page = await context.newPage();
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));

    await page.goto(`${base}/login`);
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', 'not the password');
    await page.click('button[type=submit]');
    await page.waitForLoadState('load');
    expect(await page.textContent('[data-testid=form-alert]')).toBeTruthy();
    // The address typed stays in the form; the password does not come back.
    expect(await page.inputValue('input[name=email]')).toBe(email);
    expect(await page.inputValue('input[name=password]')).toBe('');

    await page.fill('input[name=password]', 'a long secret 42');
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/dashboard`);
    expect((await context.cookies()).some((c) => c.name === 'token')).toBe(true);
    for (const url of urls) expect(url).not.toContain('secret');
    expect(urls.join('\n')).not.toContain('password=');
    await context.close();
  });

  it('signs up and verifies without JavaScript, in the page language', async () => {
    const email = `nojs-up-${Date.now()}@example.com`;
    const context = await browser.newContext({ javaScriptEnabled: false, userAgent: DESKTOP_UA });
    const page = await context.newPage();
    await page.goto(`${base}/de/register`);
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', 'a long secret 42');
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/de/register/verification?email=${encodeURIComponent(email)}`);
    const code = /\b(\d{6})\b/.exec((await mailTo(dataDir, email)).text ?? '')![1]!;
    await page.fill('input[name=code]', code);
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/de/dashboard`);
    expect((await context.cookies()).some((c) => c.name === 'token')).toBe(true);
    await context.close();
  });

  it('refuses a form posted from another site', async () => {
    const res = await fetch(`${base}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        ...browserHeaders,
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'email=a%40example.com&password=whatever1',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});

describe('content security policy on the real pages', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('every page hydrates under its policy with no violation', async () => {
    const session = await apiSignup(base, dataDir, `csp-${Date.now()}@example.com`);
    const context = await browser.newContext({ userAgent: DESKTOP_UA });
    await context.addCookies([{ name: 'token', value: session.cookie!.slice(6), url: base }]);
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content.Security.Policy|violates/i.test(m.text())) violations.push(m.text());
    });
    for (const path of ['/', '/de/pricing', '/login', '/tools', '/dashboard', '/profile', '/affiliate']) {
      const res = await page.goto(base + path);
      expect(res!.headers()['content-security-policy'], path).toMatch(/script-src 'self' 'nonce-/);
      // Hydrated: React Router's client took over.
      await page.waitForFunction(() => '__reactRouterRouteModules' in window, null, { timeout: 15_000 });
    }
    expect(violations).toEqual([]);
    await context.close();
  });

  it('writes the nonce only as nonce attributes (so a cached page can be given a fresh one)', async () => {
    const res = await fetch(`${base}/de/pricing`, { headers: browserHeaders });
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')![1]!;
    const html = await res.text();
    const everywhere = html.split(nonce).length - 1;
    const asAttribute = html.split(`nonce="${nonce}"`).length - 1;
    expect(everywhere).toBeGreaterThan(0);
    expect(asAttribute).toBe(everywhere);
    // Every inline script carries it.
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
      if (/\bsrc=|application\/ld\+json/.test(tag)) continue;
      expect(tag).toContain(`nonce="${nonce}"`);
    }
  });
});

describe('crawlers get errors without details (decided on the server)', () => {
  it('renders no error description for Googlebot, and the full one for a browser', async () => {
    const bot = await fetch(`${base}/nope-${Date.now()}?x=1`, { headers: { 'user-agent': GOOGLEBOT_UA } });
    expect(bot.status).toBe(404);
    // What the page shows (hydration data in scripts is not displayed).
    const botHtml = (await bot.text()).replace(/<script\b[\s\S]*?<\/script>/g, '');
    expect(botHtml.includes('data-testid="error-page"')).toBe(true);
    expect(botHtml.includes('data-testid="error-description"')).toBe(false);
    expect(/nope-\d+\?x=1/.test(botHtml)).toBe(false);

    const person = await fetch(`${base}/nope-1?x=1`, { headers: browserHeaders });
    expect(person.status).toBe(404);
    const personHtml = (await person.text()).replace(/<script\b[\s\S]*?<\/script>/g, '');
    expect(personHtml.includes('data-testid="error-description"')).toBe(true);
    expect(personHtml.includes('/nope-1?x=1')).toBe(true);
  });
});

/** A desktop page on /pricing once React runs it, and the document requests it makes from then on. */
async function hydratedPricing(browser: Browser) {
  const context = await browser.newContext({ userAgent: DESKTOP_UA, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`${base}/pricing`);
  await page.waitForFunction(() => '__reactRouterRouteModules' in window, null, { timeout: 15_000 });
  const documents: string[] = [];
  page.on('request', (r) => r.resourceType() === 'document' && documents.push(r.url()));
  return { context, page, documents };
}

describe('client-side navigations follow the locale redirect', () => {
  it('a link to /terms leads a visitor who chose German to /de/terms without a page load', async () => {
    const browser = await launch();
    try {
      const { context, page, documents } = await hydratedPricing(browser);
      // The choice is made elsewhere (another tab): only the cookie says German now.
      await context.addCookies([{ name: 'i18n_redirected', value: 'de', url: base }]);
      await page.click('footer a[href="/terms"]');
      await page.waitForURL(`${base}/de/terms`);
      expect(documents).toEqual([]);
      await page.waitForFunction(() => document.documentElement.lang === 'de', null, { timeout: 10_000 });
      await context.close();
    } finally {
      await browser.close();
    }
  });
});

describe('referral cookie on client-side navigations', () => {
  it('a ?ref reached without a page load writes the cookie when none is set, and keeps the first', async () => {
    const browser = await launch();
    try {
      const { context, page, documents } = await hydratedPricing(browser);
      // A client-side navigation (the router follows history), as a link with ?ref would make.
      const go = (to: string) =>
        page.evaluate((path) => {
          window.history.pushState(null, '', path);
          window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
        }, to);
      const refCookie = async () =>
        (await context.cookies(base)).find((c) => c.name === 'clipscribe_REF_CODE');
      await go('/pricing?ref=client1');
      await expect.poll(async () => (await refCookie())?.value, { timeout: 10_000 }).toBe('CLIENT1');
      expect((await refCookie())!.expires * 1000 - Date.now()).toBeGreaterThan(89 * 24 * 3600 * 1000);
      await go('/pricing?ref=second2');
      await page.waitForTimeout(500);
      expect((await refCookie())?.value).toBe('CLIENT1');
      expect(documents).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
