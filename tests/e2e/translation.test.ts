// Translations in the browser, against a server whose language model is a local endpoint speaking
// the chat completions protocol: translate a transcript into Japanese and Spanish from the
// searchable list, watch the tracks arrive, switch between them (the address follows), fix a
// line in the side-by-side editor, translate one segment again, and download the bilingual SRT.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, streamed, type ChatServer } from '../../server/test/chat-server';
import { makeMedia } from '../../server/test/media';
import { launch, overflows } from './browser';
import { importCaptions } from './imports';
import { startServerWithModel } from './model-server';
import type { RunningServer } from './server';
import { apiSignup, signedInContext } from './session';

let browser: Browser;
let chat: ChatServer;
let server: RunningServer;
let mediaDir: string;
// Screenshots for a look at the pages (set SHOTS_DIR to keep them).
const shots = process.env.SHOTS_DIR;

const ENGLISH = [
  'Welcome to the weekly meeting.',
  'Today we talk about the new release.',
  'Thank you for listening.',
];
const JAPANESE = [
  '週次ミーティングへようこそ。',
  '今日は新しいリリースについて話します。',
  'ご清聴ありがとうございました。',
];
const SPANISH = [
  'Bienvenidos a la reunión semanal.',
  'Hoy hablamos de la nueva versión.',
  'Gracias por escuchar.',
];
/** What the model says when one segment is asked again alone. */
const JAPANESE_AGAIN = 'ようこそ、週次ミーティングへ。';

const clock = (s: number) => `00:00:${String(s).padStart(2, '0')},000`;
const SRT = ENGLISH.map((text, i) => `${i + 1}\n${clock(i * 4 + 1)} --> ${clock(i * 4 + 4)}\n${text}`).join(
  '\n\n',
);

beforeAll(async () => {
  chat = await startChatServer();
  // A translator: the language named in the system message, one numbered string per segment.
  chat.reply((req, res) => {
    const system = req.body.messages[0]!.content;
    const { segments } = JSON.parse(req.body.messages.find((m) => m.role === 'user')!.content) as {
      segments: { n: number; text: string }[];
    };
    const table = system.includes('(ja)') ? JAPANESE : SPANISH;
    const translations = segments.map((s) => {
      const i = ENGLISH.indexOf(s.text);
      const text = segments.length === 1 && table === JAPANESE && i === 0 ? JAPANESE_AGAIN : table[i]!;
      return { n: s.n, text };
    });
    // In small pieces a few milliseconds apart, as a model writes.
    const json = JSON.stringify({ translations });
    const pieces = json.match(/.{1,12}/gsu) ?? [json];
    return streamed(pieces, { gapMs: 15 })(req, res);
  });
  server = await startServerWithModel(chat);
  browser = await launch();
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'translation-e2e-'));
  if (shots) mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await chat?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: false });
};
// The tracks load after the page's scripts start: a busy machine takes seconds.
const LOAD = { timeout: 20_000 };
const segmentTexts = (page: Page) =>
  page.getByTestId('segments').locator('[data-track-text]').allInnerTexts();

describe('translations', () => {
  it('translates into Japanese and Spanish, switches tracks, fixes a line side by side, downloads bilingual SRT', async () => {
    const headers = await apiSignup(server.url, server.dataDir, `tr-${Date.now()}@example.com`);
    const id = await importCaptions(
      server.url,
      headers,
      { text: SRT, fileName: 'meeting.srt', name: 'Weekly meeting' },
      { file: makeMedia(mediaDir, 'mp4', 14) },
    );
    const ctx = await signedInContext(browser, server.url, headers.cookie!);
    const page = await ctx.newPage();
    await page.goto(`${server.url}/transcript/${id}`);

    // The dialog: the plan's characters, a search by the name in either language, keyboard picks.
    await page.getByTestId('translate-open').click();
    const dialog = page.getByTestId('translate-dialog');
    await dialog.getByTestId('translate-search').waitFor();
    const chars = ENGLISH.join('').length;
    await expect
      .poll(() => dialog.getByTestId('translate-quota').innerText(), LOAD)
      .toBe(
        `This transcript: ${chars} characters.\n\n20,000 of 20,000 translation characters left this month.`,
      );
    expect(await dialog.getByRole('option').count()).toBeGreaterThanOrEqual(100);
    await dialog.getByTestId('translate-search').fill('日本');
    expect(await dialog.getByRole('option').allInnerTexts()).toEqual(['日本語Japanese']);
    await shot(page, 'dialog-1280-en');
    await dialog.getByTestId('translate-search').fill('span');
    await page.keyboard.press('Enter');
    expect(await dialog.getByRole('option', { selected: true }).getAttribute('data-language')).toBe('es');
    await page.keyboard.press('Enter');
    // Started: the dialog closes, the page shows the new track (in the address) as it arrives.
    await page.waitForURL(/\?track=es$/);
    await expect.poll(() => segmentTexts(page), { timeout: 30_000 }).toEqual(SPANISH);

    // Japanese through the list: ↓ to it, Enter, then the button.
    await page.getByTestId('translate-open').click();
    await dialog.getByTestId('translate-search').fill('jap');
    await dialog.getByRole('option', { name: /日本語/ }).click();
    await dialog.getByTestId('translate-start').click();
    await page.waitForURL(/\?track=ja$/);
    await expect.poll(() => segmentTexts(page), { timeout: 30_000 }).toEqual(JAPANESE);
    expect(await page.getByTestId('track-bar').getByRole('link').allInnerTexts()).toEqual([
      'Original',
      'Spanish',
      'Japanese',
    ]);
    await shot(page, 'track-1280-en');
    expect(await overflows(page)).toBe(false);

    // Switching: Original, Spanish; a link with ?track=ja opens Japanese.
    await page.getByTestId('track-bar').getByRole('link', { name: 'Original' }).click();
    await page.waitForURL((u) => !u.search.includes('track='));
    await page.getByTestId('track-bar').getByRole('link', { name: 'Spanish' }).click();
    await page.waitForURL(/\?track=es$/);
    await expect.poll(() => segmentTexts(page), LOAD).toEqual(SPANISH);
    await page.goto(`${server.url}/transcript/${id}?track=ja`);
    await expect.poll(() => segmentTexts(page), LOAD).toEqual(JAPANESE);
    // The captioned-video dialog captions what the page shows: the Japanese track here.
    await page.getByTestId('render-open').click();
    const render = page.getByTestId('render-dialog');
    const trackChoice = () =>
      render.getByTestId('render-track').evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent);
    await expect.poll(trackChoice, LOAD).toBe('日本語');
    await render.getByTestId('render-close').click();
    await render.waitFor({ state: 'hidden' });

    // Side by side: the original beside each translated line.
    const sideBySide = page.getByTestId('side-by-side');
    if ((await sideBySide.getAttribute('aria-pressed')) !== 'true') await sideBySide.click();
    expect(await page.locator('[data-original]').allInnerTexts()).toEqual(ENGLISH);
    // Fix a line like a document: click into it, type, Enter saves (by revision).
    await page.locator('[data-track-text="1"]').click();
    const box = page.getByTestId('track-segment-box');
    await box.fill('今日は新しいバージョンについて話します。');
    await box.press('Enter');
    const FIXED = [JAPANESE[0]!, '今日は新しいバージョンについて話します。', JAPANESE[2]!];
    await expect.poll(() => segmentTexts(page), LOAD).toEqual(FIXED);
    // Translate one segment again: the model's new answer replaces it.
    await page.locator('[data-track-text="0"]').click();
    await page.getByTestId('retranslate').click();
    await expect.poll(() => segmentTexts(page), LOAD).toEqual([JAPANESE_AGAIN, FIXED[1], FIXED[2]]);
    await shot(page, 'side-by-side-1280-en');
    // Both saved: a reload shows them.
    await page.reload();
    await expect.poll(() => segmentTexts(page), LOAD).toEqual([JAPANESE_AGAIN, FIXED[1], FIXED[2]]);

    // Bilingual SRT of the Japanese track: the original line over the translation, byte for byte.
    const format = page.getByTestId('export-format');
    await format.selectOption('srt');
    await page.getByTestId('export-bilingual').check();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
    expect(download.suggestedFilename()).toBe('Weekly meeting.ja.bilingual.srt');
    const bytes = readFileSync((await download.path())!);
    expect(bytes.toString('utf8')).toBe(
      [
        '1\n00:00:01,000 --> 00:00:04,000\nWelcome to the weekly meeting.\nようこそ、週次ミーティングへ。\n',
        '2\n00:00:05,000 --> 00:00:08,000\nToday we talk about the new release.\n今日は新しいバージョンについて話します。\n',
        '3\n00:00:09,000 --> 00:00:12,000\nThank you for listening.\nご清聴ありがとうございました。\n\n',
      ].join('\n'),
    );

    // The glossary: a term kept as it is, saved for the workspace.
    await page.getByTestId('glossary-open').click();
    const glossary = page.getByTestId('glossary-dialog');
    await glossary.getByTestId('glossary-add').click();
    await glossary.getByTestId('glossary-source').fill('ClipScribe');
    await glossary.getByTestId('glossary-keep').check();
    await glossary.getByTestId('glossary-save').click();
    await glossary.waitFor({ state: 'hidden' });
    const saved = await (await fetch(`${server.url}/self-api/v1/glossary`, { headers })).json();
    expect(saved.data.terms).toEqual([{ source: 'ClipScribe', target: null }]);

    // The Japanese interface at 1280 px, and the English one at 375 px: nothing wider than the page.
    // The language chosen as the switcher does (an account's pages follow its choice).
    await ctx.addCookies([{ name: 'i18n_redirected', value: 'ja', url: server.url }]);
    await page.goto(`${server.url}/ja/transcript/${id}?track=ja`);
    await expect.poll(() => segmentTexts(page), LOAD).toEqual([JAPANESE_AGAIN, FIXED[1], FIXED[2]]);
    expect(await page.getByTestId('side-by-side').innerText()).toBe('原文と並べる');
    await shot(page, 'side-by-side-1280-ja');
    expect(await overflows(page)).toBe(false);
    await ctx.addCookies([{ name: 'i18n_redirected', value: 'en', url: server.url }]);
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`${server.url}/transcript/${id}?track=ja`);
    await expect.poll(() => segmentTexts(page), LOAD).toEqual([JAPANESE_AGAIN, FIXED[1], FIXED[2]]);
    await page.evaluate(() =>
      document.querySelector('[data-testid="track-bar"]')!.scrollIntoView({ block: 'center' }),
    );
    await shot(page, 'side-by-side-375-en');
    expect(await overflows(page)).toBe(false);

    // Japanese pages at 375 px: the bar, the dialog and the side-by-side rows fit.
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, locale: 'ja-JP' });
    const [name, value] = headers.cookie!.split('=') as [string, string];
    await phone.addCookies([
      { name, value, url: server.url, httpOnly: true },
      { name: 'i18n_redirected', value: 'ja', url: server.url },
    ]);
    const ja = await phone.newPage();
    await ja.goto(`${server.url}/ja/transcript/${id}?track=ja`);
    await expect.poll(() => segmentTexts(ja), LOAD).toEqual([JAPANESE_AGAIN, FIXED[1], FIXED[2]]);
    expect(await ja.getByTestId('track-bar').getByRole('link').allInnerTexts()).toEqual([
      '原文',
      'スペイン語',
      '日本語',
    ]);
    expect(await overflows(ja)).toBe(false);
    // Below the player that stays at the top on phones.
    await ja.evaluate(() =>
      document.querySelector('[data-testid="segments"]')!.scrollIntoView({ block: 'center' }),
    );
    await shot(ja, 'track-375-ja');
    await ja.getByTestId('translate-open').click();
    await ja.getByTestId('translate-dialog').getByTestId('translate-search').fill('ドイツ');
    expect(await ja.getByTestId('translate-dialog').getByRole('option').allInnerTexts()).toEqual([
      'Deutschドイツ語',
    ]);
    await shot(ja, 'dialog-375-ja');
    expect(await overflows(ja)).toBe(false);
    await ja.keyboard.press('Escape');
    await ja.getByTestId('glossary-open').click();
    await ja.getByTestId('glossary-dialog').getByTestId('glossary-rows').waitFor();
    await shot(ja, 'glossary-375-ja');
    expect(await overflows(ja)).toBe(false);
    await ja.keyboard.press('Escape');

    // A share link: the visitor switches languages, and the downloads follow.
    const link = await (
      await fetch(`${server.url}/self-api/v1/transcripts/${id}/shares`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ allow_media: true, allow_download: true }),
      })
    ).json();
    const visitor = await (await browser.newContext({ viewport: { width: 375, height: 740 } })).newPage();
    await visitor.goto(`${server.url}${link.data.url}`);
    const languages = visitor.getByTestId('share-languages');
    expect(await languages.getByRole('link').allInnerTexts()).toEqual(['Original', 'Español', '日本語']);
    await languages.getByRole('link', { name: 'Español' }).click();
    await visitor.waitForURL(/\?track=es$/);
    await expect
      .poll(() => visitor.getByTestId('segments').locator('li').allInnerTexts())
      .toEqual(SPANISH.map((text, i) => `0:0${i * 4 + 1}\n${text}`));
    expect(await overflows(visitor)).toBe(false);
    await shot(visitor, 'share-375-en');
    const [file] = await Promise.all([
      visitor.waitForEvent('download'),
      visitor.getByTestId('share-downloads').getByRole('button', { name: 'Text (TXT)' }).click(),
    ]);
    expect(file.suggestedFilename()).toBe('Weekly meeting.es.txt');
    expect(readFileSync((await file.path())!, 'utf8')).toBe(`${SPANISH.join('\n\n')}\n`);
    // A long walk (two translations, four page sizes, a share): minutes on a busy 2-core machine.
  }, 300_000);
});
