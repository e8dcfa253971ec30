import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES } from '../../common/locales';
import { testApp } from '../test/harness';
import { createLogger } from '../logger';
import { importToolPages, seedToolPages } from '../modules/seo/pages';
import { addRouteRule, RuleError } from '../modules/seo/route-rules';
import { seoPages } from '../db/schema';

let h: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  // A stand-in page renderer: the route-rule lookup runs in front of it.
  h = await testApp({ ssr: async (req) => new Response(`page ${new URL(req.url).pathname}`) });
  await h.db.delete(seoPages);
  expect(await seedToolPages(h.db, createLogger('silent'), new Date())).toBe(12 * LOCALES.length);
  // A second start does not seed again.
  expect(await seedToolPages(h.db, createLogger('silent'), new Date())).toBe(0);
});
afterAll(() => h.close());

const get = async (path: string) => {
  const res = await h.app.request(path);
  return { status: res.status, json: await res.json() };
};

describe('seo-landing API', () => {
  it('check-page counts a page in a language, by path (with or without prefix) or slug', async () => {
    const q = (lang: string, path: string) =>
      get(`/self-api/v1/seo-landing/check-page?lang=${lang}&path=${encodeURIComponent(path)}`);
    expect((await q('en', '/tools/video-to-text')).json).toEqual({
      code: 200,
      message: 'ok',
      data: { count: 1 },
    });
    expect((await q('de', '/de/tools/mp4-to-text/')).json.data.count).toBe(1);
    expect((await q('ja', 'srt-generator')).json.data.count).toBe(1);
    expect((await q('en', '/tools/nope')).json.data.count).toBe(0);
    expect((await q('en', '/pricing')).json.data.count).toBe(0);
    expect((await q('en', '/tools/../etc/passwd')).json.data.count).toBe(0);
    const bad = await q('xx', '/tools/video-to-text');
    expect(bad.status).toBe(422);
    expect(bad.json.data.field_keys.lang).toBe('errors.seo.badLang');
  });

  it('info returns the page in that language with its related tools and languages', async () => {
    const { json } = await get('/self-api/v1/seo-landing/info?lang=fr&path=/fr/tools/video-to-text');
    const page = json.data;
    expect(page).toMatchObject({
      slug: 'video-to-text',
      lang: 'fr',
      group: 'video',
      languages: [...LOCALES],
    });
    expect(page.h1).not.toBe('');
    expect(page.steps).toHaveLength(3);
    expect(page.related.length).toBeGreaterThanOrEqual(3);
    for (const r of page.related) expect(r).toEqual({ slug: expect.any(String), nav: expect.any(String) });
    const en = (await get('/self-api/v1/seo-landing/info?lang=en&path=video-to-text')).json.data;
    expect(page.h1).not.toBe(en.h1);
    const missing = await get('/self-api/v1/seo-landing/info?lang=en&path=/tools/nope');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({
      code: 40421,
      message_key: 'errors.seo.pageNotFound',
      data: { path: '/tools/nope' },
    });
  });

  it('footer-tools groups every page of the language', async () => {
    const de = (await get('/self-api/v1/seo-landing/footer-tools?lang=de')).json.data;
    expect(de.groups.map((g: { group: string }) => g.group)).toEqual([
      'video',
      'audio',
      'subtitles',
      'use-cases',
    ]);
    const all = de.groups.flatMap((g: { tools: { slug: string }[] }) => g.tools.map((t) => t.slug));
    expect(all).toHaveLength(12);
    const en = (await get('/self-api/v1/seo-landing/footer-tools?lang=en')).json.data;
    expect(en.groups[0].tools[0].nav).not.toBe(de.groups[0].tools[0].nav);
  });

  it('an import replaces a page and drops nothing else', async () => {
    const [file] = (await import('../modules/seo/content-files')).readToolFiles(
      'content/tools/mp3-to-text.json',
    );
    file!.locales.en!.h1 = 'MP3 to text, updated';
    await importToolPages(h.db, [file!], new Date());
    h.deps.services.seo.tools.invalidate();
    const page = (await get('/self-api/v1/seo-landing/info?lang=en&path=mp3-to-text')).json.data;
    expect(page.h1).toBe('MP3 to text, updated');
    expect(
      (await get('/self-api/v1/seo-landing/footer-tools?lang=en')).json.data.groups.flatMap(
        (g: { tools: unknown[] }) => g.tools,
      ),
    ).toHaveLength(12);
  });
});

describe('sitemap and robots', () => {
  it('lists every tool page in every language with hreflang alternates', async () => {
    const res = await h.app.request('/sitemap.xml');
    expect(res.headers.get('content-type')).toContain('application/xml');
    const xml = await res.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    const tools = locs.filter((p) => /\/tools\//.test(p));
    expect(tools).toHaveLength(12 * LOCALES.length);
    expect(locs).toContain('/tools/video-to-text');
    expect(locs).toContain('/tw/tools/podcast-transcription');
    expect(locs).toContain('/de/pricing');
    expect(locs).not.toContain('/privacy-policy/index_backup');
    expect(locs.some((p) => p.includes('/tools/components'))).toBe(false);
    const entry = xml
      .split('<url>')
      .find((u) => u.includes('<loc>http://localhost/ja/tools/srt-generator</loc>'))!;
    expect(entry).toContain('hreflang="zh-Hant" href="http://localhost/tw/tools/srt-generator"');
    expect(entry).toContain('hreflang="x-default" href="http://localhost/tools/srt-generator"');
  });

  it('keeps private areas out of robots and points at the sitemap', async () => {
    const txt = await (await h.app.request('/robots.txt')).text();
    expect(txt).toContain('Disallow: /dashboard');
    expect(txt).toContain('Disallow: /de/dashboard');
    expect(txt).toContain('Disallow: /tools/components');
    expect(txt).toContain('Sitemap: http://localhost/sitemap.xml');
    expect(txt).not.toMatch(/Disallow: \/tools\n/);
  });
});

describe('route rules', () => {
  it('redirects by path before the page renders: internal with the query kept, or external', async () => {
    await addRouteRule(h.db, { path: '/old-pricing/', target: '/pricing' });
    await addRouteRule(h.db, { path: '/blog', target: 'https://blog.example.com/', status: 302 });
    h.deps.services.seo.rules.invalidate();
    const internal = await h.app.request('/old-pricing?ref=ABC', { headers: { 'accept-language': 'de' } });
    expect(internal.status).toBe(301);
    expect(internal.headers.get('location')).toBe('/pricing?ref=ABC');
    const external = await h.app.request('/blog');
    expect(external.status).toBe(302);
    expect(external.headers.get('location')).toBe('https://blog.example.com/');
    expect(await (await h.app.request('/pricing')).text()).toBe('page /pricing');
  });

  it('refuses loops, chains and bad targets', async () => {
    await addRouteRule(h.db, { path: '/a', target: '/b' });
    await expect(addRouteRule(h.db, { path: '/b', target: '/a' })).rejects.toThrow(RuleError);
    await expect(addRouteRule(h.db, { path: '/c', target: '/a' })).rejects.toThrow(
      /redirects to \/b already/,
    );
    await expect(addRouteRule(h.db, { path: '/b', target: '/d' })).rejects.toThrow(/would make a chain/);
    await expect(addRouteRule(h.db, { path: '/x', target: '/x/' })).rejects.toThrow(/itself/);
    await expect(addRouteRule(h.db, { path: '/x', target: 'javascript:alert(1)' })).rejects.toThrow(
      RuleError,
    );
    await expect(addRouteRule(h.db, { path: '/x', target: '//evil.example' })).rejects.toThrow(RuleError);
    await expect(addRouteRule(h.db, { path: 'x', target: '/y' })).rejects.toThrow(/Not a path/);
    await expect(addRouteRule(h.db, { path: '/x', target: '/y', status: 307 })).rejects.toThrow(/301 or 302/);
  });
});
