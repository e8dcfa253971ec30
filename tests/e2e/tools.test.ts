import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GOOGLEBOT_UA, launch, newContext } from './browser';

const base = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('/tools landing pages', () => {
  it.each([
    ['/tools/video-to-text', 'en'],
    ['/de/tools/video-to-text', 'de'],
    ['/ja/tools/video-to-text', 'ja'],
  ])('%s is server-rendered in its language with hreflang and valid JSON-LD', async (path, lang) => {
    // A crawler sees the server-rendered page as is (no language redirect, no script needed).
    const ctx = await newContext(browser, { userAgent: GOOGLEBOT_UA });
    const page = await ctx.newPage();
    await ctx.route('**/*.js', (route) => route.abort());
    const res = await page.goto(`${base}${path}`);
    expect(res!.status()).toBe(200);
    const h1 = (await page.locator('h1').textContent())!.trim();
    expect(h1.length).toBeGreaterThan(3);
    const langAttr = await page.locator('html').getAttribute('lang');
    expect(langAttr).toBe(lang);
    const hreflangs = await page
      .locator('link[rel=alternate][hreflang]')
      .evaluateAll((links) =>
        links.map((l) => [l.getAttribute('hreflang'), new URL(l.getAttribute('href')!).pathname]),
      );
    expect(hreflangs).toContainEqual(['de', '/de/tools/video-to-text']);
    expect(hreflangs).toContainEqual(['zh-Hant', '/tw/tools/video-to-text']);
    expect(hreflangs).toContainEqual(['x-default', '/tools/video-to-text']);
    expect(hreflangs).toHaveLength(11);
    expect(new URL((await page.locator('link[rel=canonical]').getAttribute('href'))!).pathname).toBe(path);
    const ld = await page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((s) => s.map((x) => JSON.parse(x.textContent ?? '')));
    expect(ld.map((d) => d['@type'])).toEqual(['SoftwareApplication', 'FAQPage', 'BreadcrumbList']);
    const faq = ld[1];
    expect(faq.mainEntity.length).toBeGreaterThanOrEqual(4);
    expect(faq.mainEntity[0]).toMatchObject({ '@type': 'Question', acceptedAnswer: { '@type': 'Answer' } });
    expect(await page.locator('[data-block=wd] summary').first().textContent()).toBe(faq.mainEntity[0].name);
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe(await page.title());
    await ctx.close();
  });

  it('translates the H1 per language and lists the tools in the footer', async () => {
    const ctx = await newContext(browser, { userAgent: GOOGLEBOT_UA });
    const page = await ctx.newPage();
    const h1s = new Set<string>();
    for (const path of ['/tools/mp4-to-text', '/de/tools/mp4-to-text', '/ja/tools/mp4-to-text']) {
      await page.goto(`${base}${path}`);
      h1s.add((await page.locator('h1').textContent())!);
    }
    expect(h1s.size).toBe(3);
    const footerLinks = await page
      .locator('footer nav a')
      .evaluateAll((a) => a.map((x) => x.getAttribute('href')));
    expect(footerLinks).toContain('/ja/tools/video-to-text');
    expect(footerLinks).toHaveLength(12);
    await ctx.close();
  });

  it('an unknown tool is a 404 that names the path', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    const res = await page.goto(`${base}/tools/no-such-tool`);
    expect(res!.status()).toBe(404);
    expect(await page.locator('main').textContent()).toContain('Page not found: /tools/no-such-tool');
    await ctx.close();
  });

  it('the call to action leads a visitor to sign up and a signed-in user to the upload', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await page.goto(`${base}/tools/audio-to-text`);
    await page.getByTestId('tool-cta').waitFor();
    expect(await page.getByTestId('tool-cta').getAttribute('href')).toBe('/register');
    await ctx.close();
  });

  it('the block gallery shows each block kind, out of search results', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    for (const kind of ['gnsy', 'bzjs', 'gnjs', 'wd', 'gdgj']) {
      const res = await page.goto(`${base}/tools/components/${kind}`);
      expect(res!.status()).toBe(200);
      expect(await page.locator(`[data-block=${kind}]`).count()).toBe(1);
      expect(await page.locator('meta[name=robots]').getAttribute('content')).toBe('noindex');
    }
    await ctx.close();
  });
});

describe('legal pages', () => {
  it('render the full texts, and the previous policy is marked and not indexed', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await page.goto(`${base}/privacy-policy`);
    expect(await page.locator('article h2').count()).toBeGreaterThanOrEqual(10);
    await page.goto(`${base}/privacy-policy/index_backup`);
    expect(await page.locator('meta[name=robots]').getAttribute('content')).toBe('noindex');
    expect(await page.getByRole('note').textContent()).toContain('previous version');
    await page.goto(`${base}/terms`);
    expect(await page.locator('article h2').count()).toBeGreaterThanOrEqual(10);
    await ctx.close();
  });
});
