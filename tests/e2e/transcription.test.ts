import { closeSync, mkdirSync, openSync, readFileSync, truncateSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeMedia } from '../../server/test/media';
import { tusUpload } from '../../server/test/tus';
import { waitFor } from '../../server/test/wait';
import { launch } from './browser';
import { signedInPage as signUp } from './session';

const base = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const signedInPage = (email: string) => signUp(browser, base, dataDir, email);

/** The quota meter renders from the client state cookies, so it appears once React runs. */
const hydrated = (page: Page) => page.locator('[data-testid=quota]').waitFor();

describe('transcription in the browser', () => {
  it('uploads a video, follows the progress live and shows the finished transcript', async () => {
    const { ctx, page } = await signedInPage(`upload-${Date.now()}@example.com`);
    await page.goto(`${base}/dashboard`);
    await hydrated(page);
    const video = makeMedia(path.resolve('tmp/test-media'), 'mp4', 30);
    await page.setInputFiles('[data-testid=upload-input]', video);
    const row = page.locator('[data-upload]').first();
    await row.locator('text=Open').waitFor({ timeout: 30_000 });
    await row.locator('text=Open').click();
    await page.waitForURL(/\/transcript\/[0-9a-f-]{36}$/);
    // The page follows the job through the event stream until it is done, without a reload.
    await page.locator('[data-status=done]').waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-testid=progress]').count()).toBe(0);
    const player = page.locator('video');
    expect(await player.getAttribute('src')).toMatch(/\/self-api\/v1\/transcripts\/.+\/media$/);
    const segments = page.locator('[data-testid=segments] li');
    if ((await segments.count()) > 0) {
      await segments.first().locator('button').click();
    } else {
      await page.getByText('No speech was found in this file.').waitFor();
    }
    await page.goto(`${base}/dashboard`);
    await page.locator('[data-testid=transcripts] [data-status=done]').first().waitFor();
    await ctx.close();
  });

  it('shows the finished transcript when its stream comes back only after the end', async () => {
    const { ctx, page, headers } = await signedInPage(`late-${Date.now()}@example.com`);
    const fetcher = (p: string, init: RequestInit) => fetch(`${base}${p}`, init);
    const file = makeMedia(path.resolve('tmp/test-media'), 'wav', 20);
    const { id: uploadId } = await tusUpload(fetcher, headers, readFileSync(file), 'late.wav', {
      filetype: 'audio/wav',
    });
    const created = await fetcher('/self-api/v1/transcripts', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ upload_id: uploadId, detect_speech: false }),
    });
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    // The page's stream is cut (a network drop) until the job has ended: the stream it opens
    // again answers only the end, without the text, and the page loads the transcript itself.
    await page.route('**/events', (route) => route.abort());
    await page.goto(`${base}/transcript/${id}`);
    await page.locator('[data-testid=progress]').waitFor();
    await waitFor(
      async () => {
        const r = await fetcher(`/self-api/v1/transcripts/${id}`, { headers });
        return ((await r.json()) as { data: { status: string } }).data.status === 'done' || undefined;
      },
      { ms: 60_000, everyMs: 250, what: 'the transcript done' },
    );
    await page.unroute('**/events');
    await page.locator('[data-status=done]').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid=segments] li').first().waitFor();
    expect(await page.locator('[data-testid=progress]').count()).toBe(0);
    await ctx.close();
  });

  it('imports an .srt file and shows its segments', async () => {
    const { ctx, page } = await signedInPage(`import-${Date.now()}@example.com`);
    await page.goto(`${base}/dashboard`);
    await hydrated(page);
    await page.setInputFiles('[data-testid=upload-input]', {
      name: 'lecture.srt',
      mimeType: 'application/x-subrip',
      buffer: Buffer.from(
        '1\n00:00:01,000 --> 00:00:04,000\nWelcome to the lecture\n\n2\n00:01:05,000 --> 00:01:09,000\nLet us begin\n',
      ),
    });
    await page.locator('[data-upload=done]').getByText('Imported.').waitFor();
    await page.locator('[data-upload=done] >> text=Open').click();
    await page.waitForURL(/\/transcript\//);
    await page.getByText('Welcome to the lecture').waitFor();
    const rows = page.locator('[data-testid=segments] li');
    expect(await rows.locator('button').first().innerText()).toBe('0:01');
    expect(await rows.locator('p').allInnerTexts()).toEqual(['Welcome to the lecture', 'Let us begin']);
    expect(await rows.nth(1).locator('button').first().innerText()).toBe('1:05');
    await ctx.close();
  });

  it('shows the plan limit before uploading a file that is too large', async () => {
    const { ctx, page } = await signedInPage(`limit-${Date.now()}@example.com`);
    await page.goto(`${base}/dashboard`);
    await hydrated(page);
    // A sparse file: 201 MB on paper, nothing on disk.
    const huge = path.resolve('tmp/test-media/huge.mp4');
    mkdirSync(path.dirname(huge), { recursive: true });
    closeSync(openSync(huge, 'w'));
    truncateSync(huge, 201 * 1024 * 1024);
    await page.setInputFiles('[data-testid=upload-input]', huge);
    await page.getByRole('alert').getByText('larger than your plan allows (200 MB per file)').waitFor();
    await ctx.close();
  });

  it('answers 404 for a transcript that is not the viewer’s', async () => {
    const { ctx, page } = await signedInPage(`nf-${Date.now()}@example.com`);
    const res = await page.goto(`${base}/transcript/4b6f2c1e-8d3a-4f5b-9c7d-1e2f3a4b5c6d`);
    expect(res?.status()).toBe(404);
    await ctx.close();
  });
});
