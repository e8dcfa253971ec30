// Speakers in the browser: rename one and every segment follows, filter the view by speaker,
// give a segment another speaker, undo, export with names, and the share page shows them.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, newContext } from './browser';
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

const VTT =
  'WEBVTT\n\n' +
  '00:00:01.000 --> 00:00:03.000\n<v Ann>Good morning everyone\n\n' +
  '00:00:04.000 --> 00:00:06.000\n<v Ben>Morning, Ann\n\n' +
  '00:00:07.000 --> 00:00:09.000\n<v Ann>Let us start with the budget\n\n' +
  '00:00:10.000 --> 00:00:12.000\n<v Ann>It is smaller this year\n';

const signedIn = () => signedInPage(browser, base, dataDir, `speakers-${Date.now()}@example.com`);

/** The speaker shown on each visible segment row (the picker's chosen option). */
const rowSpeakers = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=segments] li [data-testid=segment-speaker] select')].map(
      (s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent ?? '',
    ),
  );

describe('speakers on the transcript page', () => {
  it('renames a speaker everywhere, filters by speaker, reassigns, undoes, exports and shares', async () => {
    const { ctx, page, headers } = await signedIn();
    const id = await importCaptions(base, headers, { text: VTT, fileName: 'meeting.vtt', type: 'text/vtt' });

    await page.goto(`${base}/transcript/${id}`);
    const panel = page.locator('[data-testid=speaker-panel]');
    await panel.waitFor();
    await expect.poll(() => rowSpeakers(page)).toEqual(['Ann', 'Ben', 'Ann', 'Ann']);

    // Rename Ann: every one of her segments follows.
    await panel.getByRole('button', { name: 'Rename Ann' }).click();
    const input = panel.getByLabel('New name for Ann');
    await input.fill('Alice Martin');
    await input.press('Enter');
    await expect
      .poll(() => rowSpeakers(page))
      .toEqual(['Alice Martin', 'Ben', 'Alice Martin', 'Alice Martin']);

    // Filter: only Ben's segment is shown, then everyone again.
    await panel.locator('[data-speaker=s2] button[aria-pressed]').click();
    await expect
      .poll(() => page.locator('[data-testid=segments] li').allInnerTexts())
      .toEqual([expect.stringContaining('Morning, Ann')]);
    await panel.getByRole('button', { name: 'Show everyone' }).click();
    await expect.poll(() => page.locator('[data-testid=segments] li').count()).toBe(4);

    // The last segment was Ben's after all; then undo puts it back.
    await page.getByLabel('Speaker of the segment at 0:10').selectOption({ label: 'Ben' });
    await expect.poll(() => rowSpeakers(page)).toEqual(['Alice Martin', 'Ben', 'Alice Martin', 'Ben']);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect
      .poll(() => rowSpeakers(page))
      .toEqual(['Alice Martin', 'Ben', 'Alice Martin', 'Alice Martin']);

    // The export carries the new name (what the export control downloads).
    const txt = await page.evaluate(
      async (url) => (await fetch(url)).text(),
      `/self-api/v1/transcripts/${id}/export?format=txt`,
    );
    expect(txt).toBe(
      'Alice Martin: Good morning everyone\n\nBen: Morning, Ann\n\n' +
        'Alice Martin: Let us start with the budget\n\nAlice Martin: It is smaller this year\n',
    );

    // The share page shows who says what.
    const link = await fetch(`${base}/self-api/v1/transcripts/${id}/shares`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ expires_at: null, allow_media: false, allow_download: false }),
    });
    const url = ((await link.json()) as { data: { url: string } }).data.url;
    const visitor = await newContext(browser);
    const shared = await visitor.newPage();
    await shared.goto(`${base}${url}`);
    await shared.locator('[data-testid=shared-transcript]').waitFor();
    expect(await shared.locator('[data-testid=speaker-name]').allInnerTexts()).toEqual([
      'Alice Martin',
      'Ben',
      'Alice Martin',
      'Alice Martin',
    ]);
    await visitor.close();
    await ctx.close();
  });
});
