import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeMedia } from '../../server/test/media';
import { tusUpload } from '../../server/test/tus';
import { launch, newContext } from './browser';
import { watchConsole } from './console';
import { apiSignup } from './session';

// What a new user trips over first (issue 17): each check is something a person would notice.
const base = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;
let ctx: BrowserContext;
let headers: Record<string, string>;

const SRT = [
  '1\n00:00:01,000 --> 00:00:03,000\nFirst line of the talk',
  '2\n00:00:04,000 --> 00:00:06,500\nSecond line with a keyword',
  '3\n00:00:07,000 --> 00:00:09,000\nThird and last line',
].join('\n\n');

async function importTranscript(h: Record<string, string>, name: string): Promise<string> {
  const video = makeMedia(path.resolve('tmp/test-media'), 'mp4', 12);
  const fetcher = (p: string, init: RequestInit) => fetch(`${base}${p}`, init);
  const { id: uploadId } = await tusUpload(fetcher, h, readFileSync(video), 'talk.mp4');
  const form = new FormData();
  form.set('file', new File([SRT], 'talk.srt'));
  form.set('upload_id', uploadId!);
  form.set('name', name);
  const res = await fetch(`${base}/self-api/v1/transcripts/import`, { method: 'POST', headers: h, body: form });
  return ((await res.json()) as { data: { id: string } }).data.id;
}

async function signedInContext(cookie: string) {
  const c = await newContext(browser);
  const [name, value] = cookie.split('=') as [string, string];
  await c.addCookies([{ name, value, url: base, httpOnly: true }]);
  return c;
}

beforeAll(async () => {
  browser = await launch();
  headers = await apiSignup(base, dataDir, `first-${Date.now()}@example.com`);
  ctx = await signedInContext(headers.cookie!);
});
afterAll(async () => {
  await browser?.close();
});

describe('first use', () => {
  it('shows the verification-code field as a field, with a focus ring', async () => {
    const anon = await newContext(browser);
    const page = await anon.newPage();
    await page.goto(`${base}/register/verification?email=new%40example.com`);
    const code = page.getByLabel('Verification code');
    const style = await code.evaluate((el) => {
      const s = getComputedStyle(el);
      return { border: s.borderTopWidth, color: s.borderTopColor, letters: s.letterSpacing };
    });
    expect(style.border).not.toBe('0px');
    expect(style.color).not.toBe('rgba(0, 0, 0, 0)');
    expect(style.letters).not.toBe('normal'); // the page's own spacing is kept beside the field's look
    await code.focus();
    expect(await code.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe('none');
    await anon.close();
  });

  it('logs no error on the dashboard, another user’s transcript, or the affiliate pages', async () => {
    const other = await apiSignup(base, dataDir, `first-other-${Date.now()}@example.com`);
    const foreign = await importTranscript(other, 'Not yours');
    await importTranscript(headers, 'Mine');
    for (const [url, documentStatusOk] of [
      ['/dashboard', false],
      ['/de/dashboard', false],
      [`/transcript/${foreign}`, true],
      ['/affiliate/apply', false],
      ['/profile', false],
    ] as const) {
      const page = await ctx.newPage();
      const problems = watchConsole(page, { documentStatusOk });
      await page.goto(`${base}${url}`, { waitUntil: 'networkidle' });
      expect(problems, url).toEqual([]);
      await page.close();
    }
  });
});
