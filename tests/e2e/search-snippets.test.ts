import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeMedia } from '../../server/test/media';
import { tusUpload } from '../../server/test/tus';
import { launch, newContext } from './browser';
import { watchConsole } from './console';
import { apiSignup } from './session';

// A search result shows where the text matched, and opens the transcript there.
const base = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;
let headers: Record<string, string>;
let talk: string;

const SRT = [
  '1\n00:00:01,000 --> 00:00:03,000\nWelcome to the planning call',
  '2\n00:00:04,000 --> 00:00:06,000\nA word on markup',
  '3\n00:00:07,000 --> 00:00:09,500\nThe Quarterly budget is approved, said Renée',
  '4\n00:00:10,000 --> 00:00:12,000\n次の会議では東京タワーの撮影予算について話し合います',
].join('\n\n');

async function importTalk(name: string, srt: string, media: boolean): Promise<string> {
  const form = new FormData();
  if (media) {
    const video = makeMedia(path.resolve('tmp/test-media'), 'mp4', 14);
    const fetcher = (p: string, init: RequestInit) => fetch(`${base}${p}`, init);
    const { id } = await tusUpload(fetcher, headers, readFileSync(video), 'talk.mp4');
    form.set('upload_id', id!);
  }
  form.set('file', new File([srt], 'talk.srt'));
  form.set('name', name);
  const res = await fetch(`${base}/self-api/v1/transcripts/import`, { method: 'POST', headers, body: form });
  return ((await res.json()) as { data: { id: string } }).data.id;
}

async function signedInPage(opts: { locale?: string; width?: number } = {}) {
  const ctx = await newContext(
    browser,
    opts.locale ? { locale: opts.locale, acceptLanguage: opts.locale } : {},
  );
  const [name, value] = headers.cookie!.split('=') as [string, string];
  await ctx.addCookies([{ name, value, url: base, httpOnly: true }]);
  const page = await ctx.newPage();
  if (opts.width) await page.setViewportSize({ width: opts.width, height: 812 });
  return { ctx, page };
}

beforeAll(async () => {
  browser = await launch();
  headers = await apiSignup(base, dataDir, `snippets-${Date.now()}@example.com`);
  talk = await importTalk('Team talk', SRT, true);
  // Typed in the editor: text that looks like markup.
  const edit = await fetch(`${base}/self-api/v1/transcripts/${talk}/segments`, {
    method: 'PATCH',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      op: 'text',
      index: 1,
      text: 'A word on <img src=x onerror="window.pwned=1"> markup',
    }),
  });
  expect(edit.status).toBe(200);
  await importTalk('Quarterly numbers', '1\n00:00:00,000 --> 00:00:01,000\nnothing to see\n', false);
});
afterAll(async () => {
  await browser?.close();
});

describe('search results', () => {
  it('show the match in context, highlighted, and open the transcript at that segment', async () => {
    const { ctx, page } = await signedInPage();
    const problems = watchConsole(page);
    await page.goto(`${base}/dashboard`);
    await page.locator('[data-testid=transcripts]').waitFor();
    await page.locator('input[type=search]').fill('quarterly');
    const row = page.locator('[data-transcript="Team talk"]');
    const snippet = row.getByTestId('snippet');
    await snippet.waitFor();
    expect(await snippet.innerText()).toContain('The Quarterly budget is approved, said Renée');
    expect(await snippet.locator('mark').allInnerTexts()).toEqual(['Quarterly']);
    expect(await snippet.innerText()).toMatch(/^0:07/);
    // Found by its name only: no snippet.
    await page.locator('[data-transcript="Quarterly numbers"]').waitFor();
    expect(await page.locator('[data-transcript="Quarterly numbers"] [data-testid=snippet]').count()).toBe(0);

    await snippet.click();
    await page.waitForURL(`${base}/transcript/${talk}?seg=2&t=7`);
    const target = page.locator('[data-segment="2"]');
    await expect.poll(() => target.getAttribute('data-linked')).toBe('true');
    await expect.poll(() => target.evaluate((el) => el.classList.contains('bg-brand-50'))).toBe(true);
    expect(await target.isVisible()).toBe(true);
    const inView = await target.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
    await expect
      .poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime))
      .toBeCloseTo(7, 1);
    expect(await page.locator('video').evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('keep markup in a transcript as text', async () => {
    const { ctx, page } = await signedInPage();
    await page.goto(`${base}/dashboard`);
    await page.locator('[data-testid=transcripts]').waitFor();
    await page.locator('input[type=search]').fill('markup');
    const snippet = page.locator('[data-transcript="Team talk"]').getByTestId('snippet');
    await snippet.waitFor();
    expect(await snippet.innerText()).toContain('<img src=x onerror="window.pwned=1"> markup');
    expect(await snippet.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await ctx.close();
  });

  it('ignore a bad segment link', async () => {
    const { ctx, page } = await signedInPage();
    const problems = watchConsole(page);
    for (const query of ['seg=abc&t=-1', 'seg=99999&t=1e9', 'seg=%00&t=NaN']) {
      await page.goto(`${base}/transcript/${talk}?${query}`);
      await page.locator('[data-segment="0"]').waitFor();
      expect(await page.locator('[data-linked]').count()).toBe(0);
      expect(await page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime)).toBe(0);
    }
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('find Japanese inside a sentence and fit a phone, in Japanese', async () => {
    const { ctx, page } = await signedInPage({ locale: 'ja', width: 375 });
    const problems = watchConsole(page);
    await page.goto(`${base}/ja/dashboard`);
    await page.locator('[data-testid=transcripts]').waitFor();
    await page.locator('input[type=search]').fill('撮影予算');
    const snippet = page.locator('[data-transcript="Team talk"]').getByTestId('snippet');
    await snippet.waitFor();
    expect(await snippet.locator('mark').allInnerTexts()).toEqual(['撮影予算']);
    expect(await snippet.getAttribute('href')).toBe(`/ja/transcript/${talk}?seg=3&t=10`);
    const box = (await snippet.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    // The search box keeps its whole width on a phone.
    expect((await page.locator('input[type=search]').boundingBox())!.width).toBeGreaterThan(300);
    await snippet.click();
    await page.waitForURL(`${base}/ja/transcript/${talk}?seg=3&t=10`);
    await expect.poll(() => page.locator('[data-segment="3"]').getAttribute('data-linked')).toBe('true');
    expect(problems).toEqual([]);
    await ctx.close();
  });
});
