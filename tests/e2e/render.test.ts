// Captioned video from the transcript page: the dialog, a server-rendered preview, karaoke 9:16
// rendered from the fixture media, downloaded and checked with ffprobe (H.264/AAC, 9:16).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeMedia } from '../../server/test/media';
import { launch } from './browser';
import { importCaptions, importTalk, TALK_SRT } from './imports';
import { signedInContext, signedInPage } from './session';

const require = createRequire(import.meta.url);
const ffprobe = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
const base = inject('baseUrl');
const dataDir = inject('dataDir');
const dir = mkdtempSync(path.join(os.tmpdir(), 'render-e2e-'));
// Set E2E_SCREENSHOTS=<folder> to keep pictures of the dialog (1280 and 375 px, English and Japanese).
const shots = process.env.E2E_SCREENSHOTS;
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
  if (shots) mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The dialog's own content is never wider than the screen. */
const overflows = (page: Page) =>
  page.evaluate(() => {
    const d = document.querySelector('[data-testid=render-dialog]')!;
    return [...d.querySelectorAll('*')].some(
      (el) => el.getBoundingClientRect().right > window.innerWidth + 1,
    );
  });

async function picture(page: Page, name: string) {
  if (shots) await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

describe('captioned video', () => {
  it('previews, renders karaoke 9:16 and downloads an H.264/AAC MP4', async () => {
    const { ctx, page, headers } = await signedInPage(
      browser,
      base,
      dataDir,
      `render-${Date.now()}@example.com`,
    );
    const id = await importTalk(base, headers, 'Render walk');
    await page.goto(`${base}/transcript/${id}`);
    await page.getByTestId('render-open').click();
    const dialog = page.getByTestId('render-dialog');
    await dialog.waitFor();
    // Free: ten minutes a month, 720p, the mark.
    await expect.poll(() => dialog.getByTestId('render-quota').innerText()).toMatch(/10 minutes.*720p/);
    expect(await dialog.getByTestId('render-mark-notice').isVisible()).toBe(true);

    await dialog.locator('[data-preset=karaoke]').click();
    await dialog.locator('[data-shape="9:16"]').click();
    expect(await dialog.locator('input[name=render-fit][value=crop]').isChecked()).toBe(true);

    // Three seconds rendered by the server, shown in the dialog.
    await dialog.getByTestId('render-preview').click();
    const previewVideo = dialog.getByTestId('render-preview-video');
    await previewVideo.waitFor({ timeout: 120_000 });
    const previewShape = await previewVideo.evaluate(
      (v: HTMLVideoElement) =>
        new Promise<number>((resolve) => {
          const ratio = () => resolve(v.videoHeight / v.videoWidth);
          if (v.readyState >= 1) ratio();
          else v.addEventListener('loadedmetadata', ratio, { once: true });
        }),
    );
    expect(previewShape).toBeCloseTo(16 / 9, 1);
    // The preview is not one of "your captioned videos".
    expect(await dialog.getByTestId('render-list').count()).toBe(0);

    await dialog.getByTestId('render-start').click();
    await dialog.getByTestId('render-progress').first().waitFor({ timeout: 30_000 });
    const download = dialog.getByTestId('render-download');
    await download.waitFor({ timeout: 180_000 });
    expect(await dialog.getByTestId('render-progress').count()).toBe(0);
    // The footer says it is ready, with the download beside it.
    expect(await dialog.getByTestId('render-ready').isVisible()).toBe(true);
    expect(await dialog.locator('[data-testid=render-list] li').count()).toBe(1);
    await picture(page, 'render-en-1280');

    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe('Render walk.mp4');
    const out = path.join(dir, 'walk.mp4');
    await file.saveAs(out);
    const info = JSON.parse(
      execFileSync(ffprobe, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', out], {
        encoding: 'utf8',
      }),
    ) as {
      format: { duration: string };
      streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
    };
    const videoStream = info.streams.find((s) => s.codec_type === 'video')!;
    expect(videoStream.codec_name).toBe('h264');
    expect(info.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    expect(videoStream.height! / videoStream.width!).toBeCloseTo(16 / 9, 1);
    expect(Math.abs(Number(info.format.duration) - 12)).toBeLessThan(0.6);

    // On a phone, and in Japanese: the same dialog, nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await overflows(page)).toBe(false);
    await picture(page, 'render-en-375');
    await ctx.close();
    // A fresh profile: the language a visit remembers would send /ja/ back to English.
    const ja = await signedInContext(browser, base, headers.cookie!);
    const jaPage = await ja.newPage();
    await jaPage.setViewportSize({ width: 375, height: 812 });
    await jaPage.goto(`${base}/ja/transcript/${id}`);
    await jaPage.getByTestId('render-open').click();
    const jaDialog = jaPage.getByTestId('render-dialog');
    await jaDialog.getByTestId('render-download').waitFor();
    expect(await jaDialog.getByTestId('render-start').innerText()).toBe('動画を作成');
    expect(await overflows(jaPage)).toBe(false);
    await picture(jaPage, 'render-ja-375');
    await jaPage.setViewportSize({ width: 1280, height: 800 });
    await picture(jaPage, 'render-ja-1280');
    await ja.close();
  }, 420_000);

  // A podcast-length source (two minutes of audio drawn on a coloured background) takes long
  // enough to render that the page can stop it: on a desktop screen and on a phone.
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 812 },
  ]) {
    it(`cancels a render from the page at ${viewport.width} px: canceled, no file`, async () => {
      const { ctx, page, headers } = await signedInPage(
        browser,
        base,
        dataDir,
        `render-cancel-${viewport.width}-${Date.now()}@example.com`,
      );
      const id = await importCaptions(
        base,
        headers,
        { text: TALK_SRT, fileName: 'podcast.srt', name: 'Podcast' },
        { file: makeMedia(path.resolve('tmp/test-media'), 'm4a', 120), fileName: 'podcast.m4a' },
      );
      await page.setViewportSize(viewport);
      await page.goto(`${base}/transcript/${id}`);
      await page.getByTestId('render-open').click();
      const dialog = page.getByTestId('render-dialog');
      await dialog.getByTestId('render-quota').waitFor();
      // An audio-only source: the background choice is offered (a colour by default).
      expect(await dialog.getByTestId('render-background').isVisible()).toBe(true);
      if (viewport.width === 1280) {
        // The workspace's picture instead of the colour: uploaded here, shown, used by the render.
        const png = path.join(dir, 'cover.png');
        execFileSync('ffmpeg', [
          '-v',
          'error',
          '-y',
          '-f',
          'lavfi',
          '-i',
          'color=c=0x20c040:s=320x180',
          '-frames:v',
          '1',
          png,
        ]);
        await dialog.getByTestId('render-background-image').check();
        await dialog.getByTestId('render-background-file').setInputFiles(png);
        await dialog.getByTestId('render-background-thumb').waitFor({ state: 'visible', timeout: 30_000 });
      }
      await dialog.getByTestId('render-start').click();
      const progress = dialog.getByTestId('render-progress');
      await progress.waitFor({ timeout: 30_000 });
      expect(await overflows(page)).toBe(false);
      await picture(page, `render-cancel-${viewport.width}`);
      await progress.getByTestId('render-cancel').click();

      // The page says so, offers no download, and the next render can start.
      const row = dialog.locator('[data-testid=render-list] li').first();
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 30_000 }).toBe('canceled');
      expect(await row.innerText()).toContain('Canceled');
      expect(await dialog.getByTestId('render-progress').count()).toBe(0);
      expect(await dialog.getByTestId('render-download').count()).toBe(0);
      expect(await dialog.getByTestId('render-start').isEnabled()).toBe(true);
      expect(await overflows(page)).toBe(false);

      // The server agrees, and once its job has stopped there is no file for it anywhere.
      const list = (await (
        await fetch(`${base}/self-api/v1/transcripts/${id}/renders`, { headers })
      ).json()) as {
        data: {
          items: {
            id: string;
            status: string;
            file_url: string | null;
            options: { background_image?: boolean };
          }[];
        };
      };
      const [render] = list.data.items;
      expect(render).toMatchObject({ status: 'canceled', file_url: null });
      expect(render!.options.background_image).toBe(viewport.width === 1280);
      const file = await fetch(`${base}/self-api/v1/renders/${render!.id}/file`, { headers });
      expect(file.status).toBe(409);
      const stored = () =>
        readdirSync(dataDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.includes(render!.id));
      await expect.poll(stored, { timeout: 10_000 }).toEqual([]);
      await ctx.close();
    }, 180_000);
  }
});
