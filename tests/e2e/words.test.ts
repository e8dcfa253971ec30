// Word timings in the browser: the word being spoken is marked as the media plays and clicking a
// word plays from it; a running job shows its stage and a bar that moves.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeMedia } from '../../server/test/media';
import { launch } from './browser';
import { importCaptions } from './imports';
import { signedInPage } from './session';

const base = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const signedIn = (email: string) => signedInPage(browser, base, dataDir, email);

/** The word marked as being spoken, or null. */
const spoken = (page: Page) =>
  page.evaluate(() => document.querySelector('[data-word][aria-current=true]')?.textContent ?? null);
const playerTime = (page: Page) =>
  page.evaluate(() => (document.querySelector('audio, video') as HTMLMediaElement | null)?.currentTime ?? -1);

describe('word timings on the transcript page', () => {
  it('marks the word being spoken as the media plays, and plays from a clicked word', async () => {
    const { ctx, page, headers } = await signedIn(`words-${Date.now()}@example.com`);
    // Media to play, captions for it, then word timings through the update API.
    const transcript = {
      id: await importCaptions(
        base,
        headers,
        { text: '1\n00:00:01,000 --> 00:00:07,000\nalpha beta gamma delta\n', fileName: 'talk.srt' },
        {
          file: makeMedia(path.resolve('tmp/test-media'), 'wav', 20),
          fileName: 'talk.wav',
          type: 'audio/wav',
        },
      ),
    };
    const words = [
      { start: 1, end: 2, text: 'alpha' },
      { start: 2, end: 3, text: 'beta' },
      { start: 3, end: 4.5, text: 'gamma' },
      { start: 4.5, end: 7, text: 'delta' },
    ];
    const saved = await fetch(`${base}/self-api/v1/transcripts/${transcript.id}/segments`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        op: 'replace',
        segments: [{ start: 1, end: 7, text: 'alpha beta gamma delta', words }],
      }),
    });
    expect(saved.status).toBe(200);
    const api = await fetch(`${base}/self-api/v1/transcripts/${transcript.id}`, { headers });
    expect(
      ((await api.json()) as { data: { segments: { words: unknown }[] } }).data.segments[0]!.words,
    ).toEqual(words);

    await page.goto(`${base}/transcript/${transcript.id}`);
    const gamma = page.locator('[data-word]', { hasText: 'gamma' });
    await gamma.waitFor();
    expect(await page.locator('[data-word]').allInnerTexts()).toEqual(['alpha', 'beta', 'gamma', 'delta']);
    await gamma.click();
    // The player jumps to the word and plays: the mark is on it, then follows the speech.
    await expect.poll(() => playerTime(page), { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    expect(await playerTime(page)).toBeLessThan(4.5);
    await expect.poll(() => spoken(page), { timeout: 5_000 }).toBe('gamma');
    await expect.poll(() => spoken(page), { timeout: 8_000 }).toBe('delta');
    await page.locator('[data-word]', { hasText: 'alpha' }).click();
    await expect.poll(() => spoken(page), { timeout: 5_000 }).toBe('alpha');
    expect(await playerTime(page)).toBeLessThan(2.5);
    await ctx.close();
  });

  it('shows what a running job is doing, with a bar that moves', async () => {
    const { ctx, page } = await signedIn(`stages-${Date.now()}@example.com`);
    await page.goto(`${base}/dashboard`);
    await page.locator('[data-testid=quota]').waitFor();
    // Everything transcribed (no speech detection), long enough to watch.
    await page.locator('[data-testid=detect-speech]').uncheck();
    await page.setInputFiles(
      '[data-testid=upload-input]',
      makeMedia(path.resolve('tmp/test-media'), 'mp3', 180),
    );
    const row = page.locator('[data-upload]').first();
    await row.locator('text=Open').waitFor({ timeout: 30_000 });
    // The row shows the job's own state, never "started" next to a failure.
    await row.locator('[data-status]').waitFor();
    await row.locator('text=Open').click();
    await page.waitForURL(/\/transcript\/[0-9a-f-]{36}$/);
    const seen: { stage: string | null; value: string | null }[] = [];
    const deadline = Date.now() + 150_000;
    while (Date.now() < deadline && (await page.locator('[data-status=done]').count()) === 0) {
      const state = await page.evaluate(() => ({
        stage: document.querySelector('[data-testid=progress-stage]')?.getAttribute('data-stage') ?? null,
        value:
          document
            .querySelector('[data-testid=progress] [role=progressbar]')
            ?.getAttribute('aria-valuenow') ?? null,
      }));
      if (state.stage) seen.push(state);
      await page.waitForTimeout(100);
    }
    await page.locator('[data-status=done]').waitFor({ timeout: 10_000 });
    const stages = [...new Set(seen.map((s) => s.stage))];
    expect(
      stages.some((s) => ['preparing', 'detecting', 'transcribing', 'saving', 'queued'].includes(s!)),
    ).toBe(true);
    const values = seen
      .filter((s) => s.stage === 'transcribing' && s.value !== null)
      .map((s) => Number(s.value));
    // The bar shows a measured percent only once it moved past zero, and it only moves forward.
    for (const v of values) expect(v).toBeGreaterThan(0);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBeGreaterThan(1);
    await ctx.close();
  }, 240_000);
});
