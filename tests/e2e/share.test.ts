import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP_UA, launch, newContext } from './browser';
import { importCaptions } from './imports';
import { apiSignup } from './session';
import { makeMedia } from '../../server/test/media';

const base = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;

const SRT =
  '1\n00:00:01,000 --> 00:00:04,000\nWelcome to the lecture\n\n2\n00:01:05,000 --> 00:01:09,000\nLet us begin\n';
const SHORT_SRT =
  '1\n00:00:00,500 --> 00:00:02,000\nFirst line\n\n2\n00:00:04,000 --> 00:00:05,500\nSecond line\n';

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function api(headers: Record<string, string>, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/self-api/v1${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; data: any };
  expect(json.code, JSON.stringify(json)).toBe(200);
  return json.data;
}

/** An owner with a finished transcript (an imported .srt, with media if asked) and a share link to it. */
async function sharedTranscript(opts: { allow_download?: boolean; media?: boolean } = {}) {
  const headers = await apiSignup(base, dataDir, `share-${Date.now()}-${Math.random()}@example.com`);
  const captions = {
    text: opts.media ? SHORT_SRT : SRT,
    fileName: 'lecture.srt',
    type: 'application/x-subrip',
    name: 'Lecture notes',
  };
  // WebM: the test browser (Chromium without proprietary codecs) plays it.
  const media = opts.media
    ? { file: makeMedia(path.resolve('tmp/test-media'), 'webm', 6), type: 'video/webm' }
    : undefined;
  const transcript = { id: await importCaptions(base, headers, captions, media) };
  const link = await api(headers, 'POST', `/transcripts/${transcript.id}/shares`, {
    expires_at: null,
    allow_media: opts.media ?? false,
    allow_download: opts.allow_download ?? false,
  });
  return { headers, transcript, link: link as { id: string; url: string } };
}

describe('shared transcripts', () => {
  it('opens a share link logged out and shows the text, downloads and the invitation', async () => {
    const { link } = await sharedTranscript({ allow_download: true });
    expect(link.url).toMatch(/^\/transcript\/share\/[0-9a-f-]{36}\/[A-Za-z0-9_-]{22}$/);
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    const res = await page.goto(`${base}${link.url}`);
    expect(res?.status()).toBe(200);
    expect(page.url()).toBe(`${base}${link.url}`); // public: no login redirect
    await expect(page.locator('h1').innerText()).resolves.toBe('Lecture notes');
    expect(await page.title()).toBe('Lecture notes — ClipScribe');
    expect(await page.locator('[data-testid=segments] li').allInnerTexts()).toEqual([
      '0:01\nWelcome to the lecture',
      '1:05\nLet us begin',
    ]);
    // Nothing to play: the link has no media.
    expect(await page.locator('video, audio').count()).toBe(0);
    const downloads = page.locator('[data-testid=share-downloads]');
    expect(await downloads.getAttribute('action')).toMatch(/\/self-api\/v1\/shares\/.+\/export$/);
    expect(
      await downloads
        .locator('button[name=format]')
        .evaluateAll((b) => b.map((x) => x.getAttribute('value'))),
    ).toEqual(
      ['txt', 'srt'], // the owner's Free plan
    );
    const invite = page.locator('[data-testid=share-invite] a');
    expect(await invite.getAttribute('href')).toBe('/register');
    await invite.click();
    await page.waitForURL(`${base}/register`);
    await ctx.close();
  });

  it('plays the shared media and seeks when a line is clicked', async () => {
    const { link } = await sharedTranscript({ media: true });
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    const ranges: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/media')) ranges.push(r.status());
    });
    await page.goto(`${base}${link.url}`);
    const video = page.locator('video');
    expect(await video.getAttribute('src')).toMatch(/^\/self-api\/v1\/shares\/.+\/media$/);
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1);
    // Clicks before hydration do nothing (the page is server-rendered), so the click is retried.
    const line = page.locator('[data-testid=segments] li button').nth(1);
    await expect
      .poll(async () => {
        await line.click();
        return video.evaluate((v: HTMLVideoElement) => v.currentTime);
      })
      .toBeGreaterThanOrEqual(4);
    // The player reads the file in byte ranges.
    expect(ranges).toContain(206);
    await ctx.close();
  });

  it('fits a 375 px phone screen', async () => {
    const { link } = await sharedTranscript({ allow_download: true });
    const ctx = await browser.newContext({
      viewport: { width: 375, height: 740 },
      userAgent: DESKTOP_UA,
      locale: 'en-US',
    });
    const page = await ctx.newPage();
    await page.goto(`${base}${link.url}`);
    await page.locator('[data-testid=segments]').waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await ctx.close();
  });

  it('serves Open Graph tags and noindex in the server-rendered HTML', async () => {
    const { link } = await sharedTranscript();
    const res = await fetch(`${base}${link.url}`, { headers: { cookie: 'i18n_redirected=en' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    const html = await res.text();
    expect(html).toContain('<meta property="og:title" content="Lecture notes — ClipScribe"/>');
    expect(html).toContain('<meta property="og:type" content="article"/>');
    expect(html).toContain('<meta property="og:description" content="Welcome to the lecture Let us begin"/>');
    expect(html).toContain('<meta name="twitter:card" content="summary"/>');
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    // Server-rendered: the text is in the document, no JavaScript needed.
    expect(html).toContain('Let us begin');
  });

  it('answers 410 Gone, saying so, once the link is revoked', async () => {
    const { headers, transcript, link } = await sharedTranscript();
    await api(headers, 'DELETE', `/transcripts/${transcript.id}/shares/${link.id}`);
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    const res = await page.goto(`${base}${link.url}`);
    expect(res?.status()).toBe(410);
    await page.locator('[data-testid=share-closed]').waitFor();
    expect(await page.locator('[data-testid=segments]').count()).toBe(0);
    await ctx.close();
  });
});
