import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, newContext } from './browser';
import { watchConsole } from './console';
import { apiSignup } from './session';

// Long and unbroken text never pushes the page sideways, and what is cut stays readable in full:
// a 200-character name on the list, the transcript and the share page, at desktop and phone
// widths; the German search placeholder fits its box.
const base = inject('baseUrl');
const dataDir = inject('dataDir');
const LONG = 'Quarterlyreviewandplanningmeeting'.repeat(7).slice(0, 200);
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
];
let browser: Browser;
let headers: Record<string, string>;
let transcriptId: string;
let sharePath: string;

beforeAll(async () => {
  browser = await launch();
  headers = await apiSignup(base, dataDir, `long-${Date.now()}@example.com`);
  const form = new FormData();
  form.set('file', new File(['1\n00:00:01,000 --> 00:00:03,000\nA line\n'], 'long.srt'));
  form.set('name', LONG);
  const res = await fetch(`${base}/self-api/v1/transcripts/import`, { method: 'POST', headers, body: form });
  transcriptId = ((await res.json()) as { data: { id: string } }).data.id;
  const share = await fetch(`${base}/self-api/v1/transcripts/${transcriptId}/shares`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ expires_at: null }),
  });
  sharePath = new URL(((await share.json()) as { data: { url: string } }).data.url, base).pathname;
});
afterAll(async () => {
  await browser?.close();
});

async function pageAt(viewport: { width: number; height: number }, path: string) {
  const ctx = await newContext(browser);
  ctx.setDefaultTimeout(15_000);
  const [name, value] = headers.cookie!.split('=') as [string, string];
  await ctx.addCookies([{ name, value, url: base, httpOnly: true }]);
  const page = await ctx.newPage();
  await page.setViewportSize(viewport);
  const problems = watchConsole(page);
  await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
  return { page, problems };
}

const sideways = (page: Page) =>
  page.evaluate(() => {
    const s = document.scrollingElement!;
    return s.scrollWidth - s.clientWidth;
  });

/** The long name is either shown whole or offered whole in a tooltip. */
const fullNameAvailable = (page: Page) =>
  page.evaluate((name) => {
    const shown = [...document.querySelectorAll('body *')].some(
      (el) => el.children.length === 0 && el.textContent === name && el.scrollWidth <= el.clientWidth + 1,
    );
    const titled = [...document.querySelectorAll('[title]')].some((el) =>
      el.getAttribute('title')!.includes(name),
    );
    return shown || titled;
  }, LONG);

describe('a 200-character unbroken name', () => {
  for (const viewport of WIDTHS) {
    it(`stays inside the page at ${viewport.width} px, on the list, the transcript and the share page`, async () => {
      for (const path of ['/dashboard', `/transcript/${transcriptId}`, sharePath, `/de${sharePath}`]) {
        const { page, problems } = await pageAt(viewport, path);
        await page.getByText(LONG.slice(0, 12)).first().waitFor();
        expect(await sideways(page), path).toBeLessThanOrEqual(0);
        expect(await fullNameAvailable(page), path).toBe(true);
        expect(problems).toEqual([]);
        await page.context().close();
      }
    });
  }
});

describe('the German search box', () => {
  for (const viewport of WIDTHS) {
    it(`shows its whole placeholder at ${viewport.width} px`, async () => {
      const { page } = await pageAt(viewport, '/de/dashboard');
      const search = page.locator('input[type=search]');
      const fit = await search.evaluate((el: HTMLInputElement) => {
        const s = getComputedStyle(el);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
        const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
        return { text: el.placeholder, need: ctx.measureText(el.placeholder).width, room };
      });
      expect(fit.text).toBe('Namen und Text durchsuchen');
      expect(fit.need, JSON.stringify(fit)).toBeLessThanOrEqual(fit.room);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await page.context().close();
    });
  }
});

describe('Chinese, Japanese and Korean headings', () => {
  /** The heading's text as it is laid out, line by line. */
  const lines = (page: Page, selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => {
        const text = el.firstChild as Text;
        const rows = new Map<number, string>();
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange();
          range.setStart(text, i);
          range.setEnd(text, i + 1);
          const top = Math.round(range.getBoundingClientRect().top);
          rows.set(top, (rows.get(top) ?? '') + text.data[i]);
        }
        return [...rows.values()].map((r) => r.trim());
      });

  for (const [lang, expected] of [
    ['zh', ['几分钟内，', '将任意视频转为文字']],
    ['ja', ['あらゆる動画を、', '数分でテキストに']],
    ['ko', ['어떤 동영상이든 몇', '분 만에 텍스트로']],
  ] as const) {
    it(`break between words or phrases on a phone (${lang})`, async () => {
      const { page } = await pageAt({ width: 375, height: 812 }, `/${lang}/`);
      expect(await lines(page, 'h1')).toEqual(expected);
      await page.context().close();
    });
  }
});
