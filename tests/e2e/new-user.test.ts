import { readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeMedia } from '../../server/test/media';
import { tusUpload } from '../../server/test/tus';
import { launch, newContext } from './browser';
import { watchConsole } from './console';
import { importTalk } from './imports';
import { apiSignup, signedInContext } from './session';

// What a new user tripped over on the dashboard and the transcript page (issue 24, items 9–14).
const base = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function signedIn(headers: Record<string, string>, locale = 'en-US', width = 1280) {
  const ctx = await signedInContext(browser, base, headers.cookie!, { locale, acceptLanguage: locale });
  const page = await ctx.newPage();
  await page.setViewportSize({ width, height: width < 500 ? 812 : 800 });
  return { ctx, page };
}

/** A transcript that never finishes: its run is stopped while it waits. */
async function canceledTranscript(headers: Record<string, string>, name: string): Promise<string> {
  const fetcher = (p: string, init: RequestInit) => fetch(`${base}${p}`, init);
  const media = readFileSync(makeMedia(path.resolve('tmp/test-media'), 'mp3', 60));
  const { id: upload } = await tusUpload(fetcher, headers, media, 'long.mp3', { filetype: 'audio/mpeg' });
  const json = { ...headers, 'content-type': 'application/json' };
  const made = await fetch(`${base}/self-api/v1/transcripts`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ upload_id: upload, name }),
  });
  const { data } = (await made.json()) as { data: { id: string } };
  const cancel = await fetch(`${base}/self-api/v1/transcripts/${data.id}/cancel`, {
    method: 'POST',
    headers: json,
  });
  expect(cancel.status).toBe(200);
  return data.id;
}

describe('bulk export', () => {
  it('downloads the finished transcripts and names the unfinished one it left out', async () => {
    const headers = await apiSignup(base, dataDir, `bulk-${Date.now()}@example.com`);
    await importTalk(base, headers, 'Finished talk');
    await canceledTranscript(headers, 'Stopped run');
    for (const [locale, prefix, says] of [
      ['en-US', '', 'Left out 1 that is not finished yet: Stopped run.'],
      ['de-DE', '/de', '1 noch nicht fertiges Transkript wurde ausgelassen: Stopped run.'],
    ] as const) {
      const { ctx, page } = await signedIn(headers, locale);
      const problems = watchConsole(page);
      await page.goto(`${base}${prefix}/dashboard`);
      await page.locator('[data-testid=transcripts] li').nth(1).waitFor();
      await page.getByTestId('bulk').locator('input[type=checkbox]').check();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('export').click(),
      ]);
      const files = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
      expect(Object.keys(files)).toEqual(['Finished talk.txt']);
      await expect
        .poll(() => page.locator('[data-sonner-toast]').allInnerTexts())
        .toContainEqual(expect.stringContaining(says));
      expect(problems).toEqual([]);
      await ctx.close();
    }
  });
});

// Plan names are translated: expectations take them from the locale files.
const starter = (lang: string): string =>
  (JSON.parse(readFileSync(`app/locales/${lang}.json`, 'utf8')) as { ranks: Record<string, string> }).ranks
    .STARTER!;

describe('what the public pages promise', () => {
  it('claims exports and teams as the plans have them, in English and German', async () => {
    for (const [prefix, hero, paid, advanced] of [
      [
        '',
        'export it as TXT and SRT.',
        `VTT, DOCX, and JSON with the ${starter('en')} plan and up.`,
        'For teams of up to 20 and long recordings',
      ],
      [
        '/de',
        'exportieren Sie es als TXT und SRT.',
        `VTT, DOCX und JSON ab dem Tarif „${starter('de')}“.`,
        'Für Teams bis 20 Personen und lange Aufnahmen',
      ],
    ] as const) {
      // A visitor whose browser speaks the page's language (no redirect to another one).
      const locale = prefix ? 'de-DE' : 'en-US';
      const ctx = await newContext(browser, { locale, acceptLanguage: locale });
      const page = await ctx.newPage();
      const problems = watchConsole(page);
      await page.goto(prefix ? `${base}${prefix}` : `${base}/`);
      const heroText = (await page.locator('h1 + p').textContent())!;
      expect(heroText).toContain(hero);
      expect(heroText).not.toContain('DOCX');
      expect(await page.locator('[data-feature=export]').textContent()).toContain(paid);
      expect(await page.locator('meta[name=description]').getAttribute('content')).not.toContain('DOCX');

      await page.goto(`${base}${prefix}/pricing`);
      expect(await page.locator('article[data-plan=ADVANCED]').textContent()).toContain(advanced);
      expect(problems).toEqual([]);
      await ctx.close();
    }
  });
});
