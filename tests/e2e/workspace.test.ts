import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch } from './browser';
import { importTalk } from './imports';
import { apiSignup, signedInContext } from './session';

const base = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let headers: Record<string, string>;

const importWithMedia = (name: string, kind: 'mp4' | 'avi' = 'mp4') => importTalk(base, headers, name, kind);

beforeAll(async () => {
  browser = await launch();
  headers = await apiSignup(base, dataDir, `ws-${Date.now()}@example.com`);
  ctx = await signedInContext(browser, base, headers.cookie!);
  page = await ctx.newPage();
});
afterAll(async () => {
  await browser?.close();
});

describe('transcript page', () => {
  it('seeks the player from a segment, edits text that survives a reload, splits and merges', async () => {
    const id = await importWithMedia('Team talk');
    await page.goto(`${base}/transcript/${id}`);
    await page.locator('[data-segment="1"] button').first().click();
    await expect
      .poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime))
      .toBeGreaterThanOrEqual(4);
    await page.locator('video').evaluate((v: HTMLVideoElement) => v.pause());

    await page.locator('[data-segment="2"] p').click();
    await page.locator('[data-segment="2"] textarea').fill('Third line, corrected by hand');
    await page.locator('input[type=search]').click(); // leaving the box saves it
    await page.getByText('Saving…').waitFor({ state: 'detached' });
    await page.reload();
    await page.getByText('Third line, corrected by hand').waitFor();

    // Split the first segment after "First line", then merge it back.
    await page.locator('[data-segment="0"] p').click();
    await page
      .locator('[data-segment="0"] textarea')
      .evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(10, 10));
    await page.getByRole('button', { name: 'Split here' }).click();
    await expect.poll(() => page.locator('[data-testid=segments] > li').count()).toBe(4);
    expect(await page.locator('[data-segment="1"] p').innerText()).toBe('of the talk');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.locator('[data-testid=segments] > li').count()).toBe(3);
    await page.locator('[data-segment="0"] p').click();
    await page.getByRole('button', { name: 'Merge with next' }).click();
    await expect.poll(() => page.locator('[data-testid=segments] > li').count()).toBe(2);

    await page.locator('input[type=search]').fill('keyword');
    await page.getByTestId('matches').getByText('1 of 1').waitFor();
  });

  it('says so when the browser cannot play the media format', async () => {
    const id = await importWithMedia('Old camera', 'avi');
    await page.goto(`${base}/transcript/${id}`);
    await page.getByText("This browser cannot play this file's format.", { exact: false }).waitFor();
    await page.getByText('Third and last line').waitFor();
  });

  it('downloads the formats of the plan with their exact content', async () => {
    const id = await importWithMedia('Export me');
    await page.goto(`${base}/transcript/${id}`);
    const options = await page.getByTestId('export-format').locator('option:not([disabled])').allInnerTexts();
    expect(options).toEqual(['TXT', 'SRT']); // the Free plan
    const get = async (format: string) => {
      await page.getByTestId('export-format').selectOption(format);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('export').click(),
      ]);
      return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') };
    };
    const txt = await get('txt');
    expect(txt.name).toBe('Export me.txt');
    expect(txt.text).toBe(
      '0:01 - 0:03\nFirst line of the talk\n\n0:04 - 0:06\nSecond line with a keyword\n\n0:07 - 0:09\nThird and last line\n',
    );
    const srt = await get('srt');
    expect(srt.name).toBe('Export me.srt');
    expect(srt.text).toContain('2\n00:00:04,000 --> 00:00:06,500\nSecond line with a keyword\n');
  });
});

describe('dashboard', () => {
  it('creates a folder, moves a transcript into it by drag and drop, and searches', async () => {
    await importWithMedia('Drag me');
    await page.goto(`${base}/dashboard`);
    await page.locator('[data-testid=quota]').waitFor();
    await page.getByRole('button', { name: '+ New folder' }).click();
    await page.getByPlaceholder('Folder name').fill('Clients');
    await page.getByRole('button', { name: 'Save' }).click();
    const folder = page.locator('[data-folder="Clients"]');
    await folder.waitFor();
    await page.locator('[data-transcript="Drag me"]').dragTo(folder);
    await page.getByText('Moved 1 transcript.').waitFor();
    await folder.click();
    await page.waitForURL(/\/dashboard\/folder\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.locator('[data-transcript]').allInnerTexts()).toHaveLength(1);
    await page.locator('[data-transcript="Drag me"]').waitFor();

    await page.goto(`${base}/dashboard`);
    await page.getByPlaceholder('Search names and text').fill('keyword');
    await expect.poll(() => page.locator('[data-transcript]').count()).toBeGreaterThanOrEqual(1);
    await page.getByPlaceholder('Search names and text').fill('zzznothing');
    await page.getByText('No transcript matches your search.').waitFor();
  });

  it('answers 404 for a folder that is not the viewer’s', async () => {
    const res = await page.goto(`${base}/dashboard/folder/4b6f2c1e-8d3a-4f5b-9c7d-1e2f3a4b5c6d`);
    expect(res?.status()).toBe(404);
  });
});
