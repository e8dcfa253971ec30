import { readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeMedia } from '../../server/test/media';
import { tusUpload } from '../../server/test/tus';
import { launch, newContext } from './browser';
import { watchConsole } from './console';
import { importCaptions, importTalk } from './imports';
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

/** Whether the element is on screen and not hidden under or clipped by anything (its centre is it). */
const inView = (locator: Locator) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.top < 0 || r.bottom > window.innerHeight) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && (hit === el || el.contains(hit));
  });

const MEETING_VTT =
  'WEBVTT\n\n' +
  '00:00:01.000 --> 00:00:03.000\n<v Henrietta Lacroix>Good morning everyone, thank you for joining\n\n' +
  '00:00:04.000 --> 00:00:06.000\n<v Bartholomew>Morning, happy to be here\n\n' +
  '00:00:07.000 --> 00:00:09.000\nNobody in particular says this\n';

/** A finished transcript with two named speakers, a line without one, and 12 s of video. */
const meeting = (headers: Record<string, string>) =>
  importCaptions(
    base,
    headers,
    { text: MEETING_VTT, fileName: 'meeting.vtt', type: 'text/vtt', name: 'Team meeting' },
    { file: makeMedia(path.resolve('tmp/test-media'), 'mp4', 12), fileName: 'meeting.mp4' },
  );

describe('the transcript page', () => {
  it('shows a new share link’s Copy and Revoke on a desktop, below the fold of its column', async () => {
    const headers = await apiSignup(base, dataDir, `share-view-${Date.now()}@example.com`);
    const id = await importTalk(base, headers, 'Shared talk');
    const { ctx, page } = await signedIn(headers);
    const problems = watchConsole(page);
    await page.goto(`${base}/transcript/${id}`);
    await page.getByRole('button', { name: 'Create link' }).click();
    const row = page.locator('[data-testid=share-links] li[data-share-state=active]');
    await row.waitFor();
    await expect.poll(() => inView(row.getByRole('button', { name: 'Copy' }))).toBe(true);
    expect(await inView(row.getByRole('button', { name: 'Revoke' }))).toBe(true);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('plays at the chosen speed and remembers it', async () => {
    const headers = await apiSignup(base, dataDir, `speed-${Date.now()}@example.com`);
    const id = await meeting(headers);
    const { ctx, page } = await signedIn(headers);
    await page.goto(`${base}/transcript/${id}`);
    const speed = page.getByTestId('player-speed');
    expect(await speed.locator('option').allInnerTexts()).toEqual([
      '0.5×',
      '0.75×',
      '1×',
      '1.25×',
      '1.5×',
      '1.75×',
      '2×',
    ]);
    await speed.selectOption('1.5');
    const rate = () => page.locator('video').evaluate((v: HTMLVideoElement) => v.playbackRate);
    expect(await rate()).toBe(1.5);
    await page.reload();
    await expect.poll(() => speed.inputValue()).toBe('1.5');
    expect(await rate()).toBe(1.5);
    await ctx.close();
  });

  it('on a phone: Export and Share at hand, whole speaker names, a player that shrinks', async () => {
    const headers = await apiSignup(base, dataDir, `phone-${Date.now()}@example.com`);
    const id = await meeting(headers);
    for (const [locale, prefix, none] of [
      ['en-US', '', 'No speaker'],
      ['ja-JP', '/ja', '話者なし'],
    ] as const) {
      const { ctx, page } = await signedIn(headers, locale, 375);
      const problems = watchConsole(page);
      await page.goto(`${base}${prefix}/transcript/${id}`);
      await page.locator('[data-testid=segments] li').nth(2).waitFor();

      // Every speaker picker shows its whole choice, "No speaker" included.
      const pickers = page.locator('[data-testid=segments] [data-testid=segment-speaker] select');
      await expect.poll(() => pickers.count()).toBe(3);
      const fits = await pickers.evaluateAll((selects) =>
        selects.map((el) => {
          const select = el as HTMLSelectElement;
          const text = select.selectedOptions[0]?.textContent ?? '';
          const s = getComputedStyle(select);
          const probe = document.createElement('span');
          probe.style.font = s.font;
          probe.style.whiteSpace = 'pre';
          probe.textContent = text;
          document.body.appendChild(probe);
          const needed = probe.getBoundingClientRect().width;
          probe.remove();
          const room = select.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
          return { text, fits: needed <= room + 0.5 };
        }),
      );
      expect(fits.map((f) => f.text)).toEqual(['Henrietta Lacroix', 'Bartholomew', none]);
      expect(
        fits.every((f) => f.fits),
        JSON.stringify(fits),
      ).toBe(true);

      // Export and Share open at the top, without scrolling through the transcript.
      const share = page.getByTestId('phone-share');
      expect(await inView(share)).toBe(true);
      await share.click();
      await expect
        .poll(() => inView(page.locator('[data-testid=share-panel] button[type=submit]')))
        .toBe(true);
      await page.getByTestId('phone-export').click();
      await expect.poll(() => inView(page.getByTestId('export'))).toBe(true);
      expect(await page.getByTestId('share-panel').isVisible()).toBe(false);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('export').click(),
      ]);
      expect(download.suggestedFilename()).toBe('Team meeting.txt');
      await page.getByTestId('phone-export').click();
      expect(await page.getByTestId('transcript-panels').isVisible()).toBe(false);

      // The player shrinks to a strip well under a quarter of the screen, and stays so.
      const box = page.getByTestId('player-box');
      await page.getByTestId('player-compact').click();
      await expect.poll(async () => (await box.boundingBox())!.height).toBeLessThan(812 * 0.25);
      await page.reload();
      await expect.poll(async () => (await box.boundingBox())!.height).toBeLessThan(812 * 0.25);
      await page.getByTestId('player-compact').click(); // as it was, for the next language
      await expect.poll(async () => (await box.boundingBox())!.height).toBeGreaterThan(812 * 0.25);
      expect(problems).toEqual([]);
      await ctx.close();
    }
  });
});

describe('the landing page’s sample', () => {
  it('plays and pauses from its play button', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    // Less motion: the sample waits for the button instead of running by itself.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`${base}/`);
    const sample = page.getByTestId('sample-transcript');
    const spoken = () => sample.locator('li button[aria-current=true]').textContent();
    const play = page.getByTestId('sample-play');
    await expect.poll(() => play.getAttribute('aria-label')).toBe('Play the sample');
    const first = await spoken();
    await play.click();
    expect(await play.getAttribute('aria-label')).toBe('Pause the sample');
    await expect.poll(spoken, { timeout: 10_000 }).not.toBe(first);
    await play.click();
    expect(await play.getAttribute('aria-label')).toBe('Play the sample');
    await ctx.close();
  });
});
