import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeMedia } from '../../server/test/media';
import { launch, newContext } from './browser';
import { watchConsole } from './console';
import { importCaptions, importTalk } from './imports';
import { mailTo } from './outbox';
import { apiSignup, signedInContext } from './session';

// What a new user trips over first: each check is something a person would notice.
const base = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;
let ctx: BrowserContext;
let headers: Record<string, string>;

const importTranscript = (h: Record<string, string>, name: string) => importTalk(base, h, name);

beforeAll(async () => {
  browser = await launch();
  headers = await apiSignup(base, dataDir, `first-${Date.now()}@example.com`);
  ctx = await signedInContext(browser, base, headers.cookie!);
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

describe('editing a transcript like a document', () => {
  const texts = (page: Page) =>
    page
      .locator('[data-testid=segments] > li')
      .evaluateAll((rows) =>
        rows.map((r) =>
          (r.querySelector('textarea')?.value ?? r.querySelector('p')?.textContent ?? '').trim(),
        ),
      );
  const saved = async (page: Page) => {
    await page.getByText('Saving…').waitFor({ state: 'detached' });
  };

  it('opens where clicked, moves between segments by click and Tab, saves on Enter, cancels on Escape', async () => {
    const id = await importTranscript(headers, 'Document editing');
    const page = await ctx.newPage();
    const problems = watchConsole(page);
    await page.goto(`${base}/transcript/${id}`, { waitUntil: 'networkidle' });
    // A click on a word puts the caret there.
    await page.locator('[data-segment="0"] p').click({ position: { x: 2, y: 8 } });
    const first = page.locator('[data-segment="0"] textarea');
    await expect.poll(() => first.evaluate((el: HTMLTextAreaElement) => el.selectionStart)).toBe(0);
    await page.keyboard.type('The ');
    // Clicking another segment while one is open opens it at once (and saves the first).
    await page.locator('[data-segment="2"] p').click();
    await page.locator('[data-segment="2"] textarea').waitFor();
    expect(await page.locator('[data-segment] textarea').count()).toBe(1);
    // Ctrl+A selects inside the box, not the page.
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Third and final line');
    // Shift+Tab saves and goes to the previous segment; Tab to the next.
    await page.keyboard.press('Shift+Tab');
    await page.locator('[data-segment="1"] textarea').waitFor();
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('continued');
    // Enter saves and closes, without adding a line.
    await page.keyboard.press('Enter');
    await page.locator('[data-segment="1"] textarea').waitFor({ state: 'detached' });
    await saved(page);
    // Escape cancels.
    await page.locator('[data-segment="0"] p').click();
    await page.keyboard.type('XYZ');
    await page.keyboard.press('Escape');
    await page.locator('[data-segment] textarea').waitFor({ state: 'detached' });
    await page.reload({ waitUntil: 'networkidle' });
    expect(await texts(page)).toEqual([
      'The First line of the talk',
      'Second line with a keyword\ncontinued',
      'Third and final line',
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('replaces across the transcript with a count, and undoes it', async () => {
    const id = await importTranscript(headers, 'Find and replace');
    const page = await ctx.newPage();
    await page.goto(`${base}/transcript/${id}`, { waitUntil: 'networkidle' });
    await page.getByPlaceholder('Find in transcript').fill('LINE');
    await page.getByTestId('matches').getByText('1 of 3').waitFor();
    await page.getByRole('button', { name: 'Replace', exact: true }).click();
    await page.getByPlaceholder('Replace with').fill('sentence');
    await page.getByTestId('replace-all').getByText('Replace all (3)').click();
    await page.getByText('Replaced 3 occurrences.').waitFor();
    expect(await texts(page)).toEqual([
      'First sentence of the talk',
      'Second sentence with a keyword',
      'Third and last sentence',
    ]);
    await page.getByRole('button', { name: 'Undo' }).first().click();
    await expect
      .poll(() => texts(page))
      .toEqual(['First line of the talk', 'Second line with a keyword', 'Third and last line']);
    await page.close();
  });
});

describe('the player on a long transcript', () => {
  it('stays in view while the text scrolls, on a desktop and (compact) on a phone', async () => {
    const long = Array.from(
      { length: 60 },
      (_, i) =>
        `${i + 1}\n00:00:${String(i % 60).padStart(2, '0')},000 --> 00:00:${String(i % 60).padStart(2, '0')},900\nLine ${i + 1} of a long talk that goes on and on`,
    ).join('\n\n');
    const id = await importCaptions(
      base,
      headers,
      { text: long, fileName: 'long.srt' },
      { file: makeMedia(path.resolve('tmp/test-media'), 'mp4', 12), fileName: 'talk.mp4' },
    );
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 375, height: 812 },
    ]) {
      const page = await ctx.newPage();
      await page.setViewportSize(viewport);
      await page.goto(`${base}/transcript/${id}`, { waitUntil: 'networkidle' });
      // Half way down the text (at the very end the page's footer takes the column's place).
      await page.mouse.wheel(0, 1500);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
      const box = (await page.locator('video').boundingBox())!;
      expect(box.y, `${viewport.width}`).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height, `${viewport.width}`).toBeLessThanOrEqual(viewport.height);
      // On a phone the player leaves most of the screen to the text.
      if (viewport.width < 500) expect(box.height).toBeLessThan(viewport.height * 0.35);
      await page.close();
    }
  });
});

describe('the language a person signs up in', () => {
  it('becomes the account’s language: the mail, its link and the profile follow it', async () => {
    // An English browser that opened the Japanese pages.
    const anon = await newContext(browser, { acceptLanguage: 'en-US,en' });
    const page = await anon.newPage();
    const email = `ja-${Date.now()}@example.com`;
    await page.goto(`${base}/ja/register`);
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', 'ひみつの言葉 42');
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.pathname === '/ja/register/verification');
    const mail = await mailTo(dataDir, email);
    expect(mail.subject).toContain('メールアドレスの確認');
    const link = /https?:\/\/\S+/.exec(mail.text ?? '')![0];
    expect(new URL(link).pathname).toBe('/ja/register/verification');
    await page.goto(link);
    await page.waitForURL(`${base}/ja/dashboard`);
    await page.goto(`${base}/ja/profile`);
    expect(await page.locator('select[name=language]').inputValue()).toBe('ja');
    await anon.close();
  });
});

describe('dead ends and small things', () => {
  it('says a revoked link was revoked (410) and offers the product', async () => {
    const id = await importTranscript(headers, 'Shared then revoked');
    const json = { ...headers, 'content-type': 'application/json' };
    const made = await fetch(`${base}/self-api/v1/transcripts/${id}/shares`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ expires_at: null }),
    });
    const link = ((await made.json()) as { data: { id: string } }).data.id;
    await fetch(`${base}/self-api/v1/transcripts/${id}/shares/${link}`, { method: 'DELETE', headers });
    const anon = await newContext(browser);
    const page = await anon.newPage();
    const problems = watchConsole(page, { documentStatusOk: true });
    const res = await page.goto(`${base}/de/transcript/share/${id}/${link}`, { waitUntil: 'networkidle' });
    expect(res?.status()).toBe(410);
    const de = JSON.parse(readFileSync('app/locales/de.json', 'utf8'));
    await page.getByRole('heading', { name: de.pages.share.revokedTitle }).waitFor();
    expect(await page.getByTestId('share-invite').getByRole('link').getAttribute('href')).toBe(
      '/de/register',
    );
    expect(problems).toEqual([]);
    await anon.close();
  });

  it('refuses a file that is not media before uploading it, and lets the row be dismissed', async () => {
    const page = await ctx.newPage();
    const uploads: string[] = [];
    page.on('request', (r) => r.url().includes('/self-api/v1/uploads') && uploads.push(r.method()));
    await page.goto(`${base}/dashboard`, { waitUntil: 'networkidle' });
    await page.setInputFiles('[data-testid=upload-input]', {
      name: 'notes.mp4',
      mimeType: 'video/mp4',
      buffer: Buffer.from('Meeting notes: numbers, hiring and the rest.\n'.repeat(50)),
    });
    const row = page.locator('[data-upload=failed]');
    await row.getByText('This file is not a video or audio file we can read.').waitFor();
    expect(uploads).toEqual([]);
    await row.getByTestId('upload-dismiss').click();
    await row.waitFor({ state: 'detached' });
    // A folder needs a name: an empty one says so instead of doing nothing.
    await page.getByRole('button', { name: '+ New folder' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').getByText('Type a name for the folder.').waitFor();
    await page.close();
  });

  it('names the tab after the transcript, shows that the title can be edited, and formats in the page language', async () => {
    const id = await importTranscript(headers, 'Board meeting');
    const page = await ctx.newPage();
    await page.goto(`${base}/transcript/${id}`, { waitUntil: 'networkidle' });
    expect(await page.title()).toBe('Board meeting | ClipScribe');
    const title = page.getByTestId('rename-title');
    expect(await title.locator('svg').count()).toBe(1);
    await title.click();
    await page.getByLabel('Rename').fill('Board meeting, March');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.title()).toBe('Board meeting, March | ClipScribe');
    await page.close();
    // German: dates and durations in German, not 'Nov 24 2026' and '12s'.
    const german = await signedInContext(browser, base, headers.cookie!);
    await german.addCookies([{ name: 'i18n_redirected', value: 'de', url: base }]);
    const dePage = await german.newPage();
    await dePage.goto(`${base}/de/transcript/${id}`, { waitUntil: 'networkidle' });
    const meta = await dePage.locator('h1 + p').innerText();
    expect(meta).toMatch(/\d{2}\.\d{2}\.\d{4}/);
    expect(meta).toMatch(/12 Sek\./);
    await german.close();
  });
});
