import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, mediaTime, overflows, PHONE } from './browser';
import { watchConsole } from './console';
import { importTalk } from './imports';
import { apiSignup, signedInContext } from './session';

// The transcript editor across a reload: its undo history, and a segment's start and end.

const base = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;
let ctx: BrowserContext;
let headers: Record<string, string>;

beforeAll(async () => {
  browser = await launch();
  headers = await apiSignup(base, dataDir, `history-${Date.now()}@example.com`);
  ctx = await signedInContext(browser, base, headers.cookie!);
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
});

type Seg = { start: number; end: number; text: string };
const stored = async (id: string) => {
  const res = await fetch(`${base}/self-api/v1/transcripts/${id}`, { headers });
  return ((await res.json()) as { data: { segments: Seg[]; updated_at: string } }).data;
};
const saved = (page: Page) => page.getByText('Saving…').waitFor({ state: 'detached' });
const undoButton = (page: Page) => page.getByRole('button', { name: 'Undo', exact: true });
const rowText = (page: Page, i: number) => page.locator(`[data-segment="${i}"] p`).innerText();

/** Whether the element's centre is the element itself (on screen, under nothing else). */
const uncovered = (locator: Locator) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && (hit === el || el.contains(hit));
  });

/** Waits until the page's scripts run (a segment opens for editing; Escape closes it again). */
async function scriptsRan(page: Page) {
  const box = page.locator('[data-segment="0"] textarea');
  await expect
    .poll(
      async () => {
        if ((await box.count()) === 0) await page.locator('[data-segment="0"] p').click();
        return box.count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  await page.keyboard.press('Escape');
  await page.locator('[data-segment] textarea').waitFor({ state: 'detached' });
}

/** Opens segment `i` for editing (a click on its text). */
async function open(page: Page, i: number) {
  await page.locator(`[data-segment="${i}"] p`).click();
  await page.locator(`[data-segment="${i}"] textarea`).waitFor();
}

describe('undo after a reload', () => {
  it('undoes an edit made before the page was reloaded', async () => {
    const id = await importTalk(base, headers, 'Undo across reloads');
    const page = await ctx.newPage();
    const problems = watchConsole(page);
    await page.goto(`${base}/transcript/${id}`, { waitUntil: 'networkidle' });
    await open(page, 0);
    await page.keyboard.press('Control+a');
    await page.keyboard.type('A line written over');
    await page.keyboard.press('Enter');
    await saved(page);
    expect((await stored(id)).segments[0]!.text).toBe('A line written over');

    await page.reload({ waitUntil: 'networkidle' });
    expect(await rowText(page, 0)).toBe('A line written over');
    // Restored once the page's scripts run (a busy machine takes its time).
    await expect.poll(() => undoButton(page).isEnabled(), { timeout: 20_000 }).toBe(true);
    await undoButton(page).click();
    await saved(page);
    await expect.poll(() => rowText(page, 0), { timeout: 15_000 }).toBe('First line of the talk');
    await expect
      .poll(async () => (await stored(id)).segments[0]!.text, { timeout: 15_000 })
      .toBe('First line of the talk');
    // Nothing left to undo, after another reload too.
    expect(await undoButton(page).isEnabled()).toBe(false);
    await page.reload({ waitUntil: 'networkidle' });
    await scriptsRan(page);
    expect(await undoButton(page).isEnabled()).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('forgets the history when the transcript was saved elsewhere since', async () => {
    const id = await importTalk(base, headers, 'Edited elsewhere');
    const page = await ctx.newPage();
    await page.goto(`${base}/transcript/${id}`, { waitUntil: 'networkidle' });
    await open(page, 2);
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Mine');
    await page.keyboard.press('Enter');
    await saved(page);
    // Another tab (or a colleague) saves a newer version.
    const now = await stored(id);
    const other = await fetch(`${base}/self-api/v1/transcripts/${id}/segments`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ op: 'text', index: 1, text: 'Theirs', updated_at: now.updated_at }),
    });
    expect(other.status).toBe(200);
    await page.reload({ waitUntil: 'networkidle' });
    expect(await rowText(page, 1)).toBe('Theirs');
    // Undoing "Mine" now would also throw away "Theirs": no undo is offered.
    await scriptsRan(page);
    expect(await undoButton(page).isEnabled()).toBe(false);
    await page.close();
  });
});

describe("a segment's start and end", () => {
  const field = (page: Page, i: number, which: 'start' | 'end') =>
    page.locator(`[data-segment="${i}"] [data-testid=time-${which}]`);

  it('are nudged and typed, saved, and kept after a reload', async () => {
    const id = await importTalk(base, headers, 'Segment times');
    const page = await ctx.newPage();
    const problems = watchConsole(page);
    await page.goto(`${base}/transcript/${id}`, { waitUntil: 'networkidle' });
    // Segment 1 runs 0:04.0–0:06.5 between 0:03.0 and 0:07.0.
    await open(page, 1);
    expect(await field(page, 1, 'start').inputValue()).toBe('0:04.0');
    await page.locator('[data-segment="1"] [data-testid=time-start-later]').click();
    await saved(page);
    await expect.poll(() => field(page, 1, 'start').inputValue(), { timeout: 15_000 }).toBe('0:04.1');
    await field(page, 1, 'end').fill('0:06.9');
    await field(page, 1, 'end').press('Enter');
    await saved(page);
    await expect
      .poll(async () => (await stored(id)).segments[1], { timeout: 15_000 })
      .toMatchObject({ start: 4.1, end: 6.9 });
    // A time past the next segment's start is refused in words, and nothing is saved.
    await field(page, 1, 'end').fill('0:08.0');
    await field(page, 1, 'end').press('Enter');
    await page.locator('[data-sonner-toast]').first().waitFor();
    expect((await stored(id)).segments[1]).toMatchObject({ start: 4.1, end: 6.9 });

    await page.reload({ waitUntil: 'networkidle' });
    expect(await page.locator('[data-segment="1"] button').first().innerText()).toBe('0:04');
    await open(page, 1);
    expect(await field(page, 1, 'start').inputValue()).toBe('0:04.1');
    expect(await field(page, 1, 'end').inputValue()).toBe('0:06.9');
    await page.screenshot({ path: path.resolve('tmp/screens/segment-times-1280.png') });
    expect(problems.filter((p) => !p.includes('422'))).toEqual([]);
    await page.close();
  });

  it('fit a phone: the fields and buttons stay on the screen and can be tapped', async () => {
    const id = await importTalk(base, headers, 'Segment times on a phone');
    const phone = await signedInContext(browser, base, headers.cookie!, { viewport: PHONE });
    const page = await phone.newPage();
    await page.goto(`${base}/transcript/${id}`, { waitUntil: 'networkidle' });
    await page.locator('[data-segment="1"] p').scrollIntoViewIfNeeded();
    await open(page, 1);
    // Brought into view as the page brings a focused field: not under the player kept at the top.
    await page.locator('[data-segment-times="1"]').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: path.resolve('tmp/screens/segment-times-375-open.png') });
    expect(await overflows(page)).toBe(false);
    for (const id of [
      'time-start-earlier',
      'time-start',
      'time-start-later',
      'time-end-earlier',
      'time-end',
      'time-end-later',
    ]) {
      const box = (await page.locator(`[data-segment="1"] [data-testid=${id}]`).boundingBox())!;
      expect(box.x, id).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, id).toBeLessThanOrEqual(PHONE.width);
      expect(box.height, id).toBeGreaterThanOrEqual(32);
      expect(await uncovered(page.locator(`[data-segment="1"] [data-testid=${id}]`)), id).toBe(true);
    }
    await page.locator('[data-segment="1"] [data-testid=time-end-earlier]').click();
    await saved(page);
    await expect.poll(async () => (await stored(id)).segments[1]!.end, { timeout: 15_000 }).toBe(6.4);
    await page.screenshot({ path: path.resolve('tmp/screens/segment-times-375.png') });
    await phone.close();
  });
});

describe("a segment's edges dragged on its timeline", () => {
  const handle = (page: Page, which: 'start' | 'end') =>
    page.locator(`[data-segment="1"] [data-testid=drag-${which}]`);
  const field = (page: Page, which: 'start' | 'end') =>
    page.locator(`[data-segment="1"] [data-testid=time-${which}]`);
  const bubble = (page: Page) => page.locator('[data-segment="1"] [data-testid=drag-time]');
  const centre = async (l: Locator) => {
    const b = (await l.boundingBox())!;
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  /** Where `seconds` is on segment 1's timeline, from where its two handles stand. */
  async function xOf(page: Page, seconds: number) {
    const [s, e] = [await centre(handle(page, 'start')), await centre(handle(page, 'end'))];
    const value = async (which: 'start' | 'end') =>
      Number(await handle(page, which).getAttribute('aria-valuenow'));
    const [a, b] = [await value('start'), await value('end')];
    return s.x + ((seconds - a) * (e.x - s.x)) / (b - a);
  }

  /** A mouse, or a finger (touch events as a phone sends them). */
  type Pointer = {
    down(x: number, y: number): Promise<void>;
    move(x: number, y: number): Promise<void>;
    up(): Promise<void>;
  };
  const mouse = (page: Page): Pointer => ({
    down: async (x, y) => {
      await page.mouse.move(x, y);
      await page.mouse.down();
    },
    move: (x, y) => page.mouse.move(x, y, { steps: 8 }),
    up: () => page.mouse.up(),
  });
  async function finger(page: Page): Promise<Pointer> {
    const cdp = await page.context().newCDPSession(page);
    let at = { x: 0, y: 0 };
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: { x: number; y: number }[]) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points }).then(() => undefined);
    return {
      down: (x, y) => {
        at = { x, y };
        return touch('touchStart', [at]);
      },
      move: async (x, y) => {
        for (let i = 1; i <= 8; i++) {
          await touch('touchMove', [{ x: at.x + ((x - at.x) * i) / 8, y: at.y + ((y - at.y) * i) / 8 }]);
        }
        at = { x, y };
      },
      up: () => touch('touchEnd', []),
    };
  }

  /** Opens segment 1 with its timeline in view (below the player a phone keeps at the top). */
  async function openTimeline(page: Page) {
    if ((await page.locator('[data-segment="1"] textarea').count()) === 0) {
      await page.locator('[data-segment="1"] p').scrollIntoViewIfNeeded();
      await open(page, 1);
    }
    await page.locator('[data-segment-times="1"]').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    for (const which of ['start', 'end'] as const) {
      expect(await uncovered(handle(page, which)), which).toBe(true);
      const box = (await handle(page, which).boundingBox())!;
      expect(box.height, which).toBeGreaterThanOrEqual(32);
      expect(box.width, which).toBeGreaterThanOrEqual(20);
    }
  }

  /**
   * Drags segment 1's start later (0:04.0 → 0:04.5) and its end past the next segment (which
   * starts at 0:07.0); both are saved, kept after a reload, and undone one by one.
   */
  async function dragAndUndo(page: Page, id: string, pointer: Pointer, shot: string) {
    await openTimeline(page);
    const start = await centre(handle(page, 'start'));
    await pointer.down(start.x, start.y);
    await pointer.move(await xOf(page, 4.5), start.y);
    // The time shows while the handle moves (a finger's last move arrives with the next frame);
    // nothing is saved yet.
    await expect.poll(() => bubble(page).innerText()).toBe('0:04.5');
    expect((await stored(id)).segments[1]!.start).toBe(4);
    await page.screenshot({ path: path.resolve(`tmp/screens/${shot}-dragging.png`) });
    await pointer.up();
    await expect.poll(async () => (await stored(id)).segments[1]!.start, { timeout: 15_000 }).toBe(4.5);
    await saved(page);
    await expect.poll(() => field(page, 'start').inputValue(), { timeout: 15_000 }).toBe('0:04.5');

    // Past the next segment's start (0:07.0) and off the strip: it stops at 0:07.0.
    await openTimeline(page);
    const end = await centre(handle(page, 'end'));
    await pointer.down(end.x, end.y);
    await pointer.move(await xOf(page, 7.3), end.y);
    await expect.poll(() => bubble(page).innerText()).toBe('0:07.0');
    await pointer.move(page.viewportSize()!.width - 2, end.y);
    await expect.poll(() => bubble(page).innerText()).toBe('0:07.0');
    await pointer.up();
    await expect
      .poll(async () => (await stored(id)).segments[1], { timeout: 15_000 })
      .toMatchObject({ start: 4.5, end: 7 });
    expect((await stored(id)).segments[2]).toMatchObject({ start: 7, end: 9 });
    await saved(page);

    await page.reload({ waitUntil: 'networkidle' });
    await scriptsRan(page);
    await openTimeline(page);
    expect(await field(page, 'start').inputValue()).toBe('0:04.5');
    expect(await field(page, 'end').inputValue()).toBe('0:07.0');
    // Each drag is one edit: two undos bring back the times it had.
    await expect.poll(() => undoButton(page).isEnabled(), { timeout: 20_000 }).toBe(true);
    await undoButton(page).click();
    await expect
      .poll(async () => (await stored(id)).segments[1], { timeout: 15_000 })
      .toMatchObject({ start: 4.5, end: 6.5 });
    await saved(page);
    await undoButton(page).click();
    await expect
      .poll(async () => (await stored(id)).segments[1], { timeout: 15_000 })
      .toMatchObject({ start: 4, end: 6.5 });
    await saved(page);
  }

  it('drag with the mouse at 1280 px, and the handles move by keys', async () => {
    const id = await importTalk(base, headers, 'Dragged times');
    const page = await ctx.newPage();
    const problems = watchConsole(page);
    await page.goto(`${base}/transcript/${id}`, { waitUntil: 'networkidle' });
    await scriptsRan(page);
    await dragAndUndo(page, id, mouse(page), 'segment-drag-1280');

    // Keys: the handle is focusable; arrows move it by tenths (Shift: hundredths), one save.
    await openTimeline(page);
    await handle(page, 'start').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => bubble(page).innerText()).toBe('0:04.21');
    await expect.poll(async () => (await stored(id)).segments[1]!.start, { timeout: 15_000 }).toBe(4.21);
    await saved(page);
    // The handle keeps the focus for more presses.
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid))
      .toBe('drag-start');
    expect(await field(page, 'start').inputValue()).toBe('0:04.21');
    // The arrows moved the handle, not the player.
    expect(await mediaTime(page)).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('drag with a finger at 375 px', async () => {
    const id = await importTalk(base, headers, 'Dragged times on a phone');
    const phone = await browser.newContext({ viewport: PHONE, hasTouch: true, locale: 'en-US' });
    const [name, value] = headers.cookie!.split('=') as [string, string];
    await phone.addCookies([{ name, value, url: base, httpOnly: true }]);
    const page = await phone.newPage();
    await page.goto(`${base}/transcript/${id}`, { waitUntil: 'networkidle' });
    await scriptsRan(page);
    await dragAndUndo(page, id, await finger(page), 'segment-drag-375');
    expect(await overflows(page)).toBe(false);
    await phone.close();
  });

  it('reads in Japanese (screenshots at 1280 and 375 px)', async () => {
    const id = await importTalk(base, headers, 'Dragged times in Japanese');
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      const c = await signedInContext(browser, base, headers.cookie!, { viewport, locale: 'ja-JP' });
      const page = await c.newPage();
      await page.goto(`${base}/ja/transcript/${id}`, { waitUntil: 'networkidle' });
      await scriptsRan(page);
      await openTimeline(page);
      expect(await handle(page, 'start').getAttribute('aria-label')).toBe('開始');
      // Moved and brought back: the time shows, nothing is saved.
      const end = await centre(handle(page, 'end'));
      await page.mouse.move(end.x, end.y);
      await page.mouse.down();
      await page.mouse.move(await xOf(page, 6.2), end.y, { steps: 5 });
      await expect.poll(() => bubble(page).innerText()).toBe('0:06.2');
      await page.screenshot({ path: path.resolve(`tmp/screens/segment-drag-ja-${viewport.width}.png`) });
      await page.mouse.move(end.x, end.y, { steps: 5 });
      await page.mouse.up();
      expect(await overflows(page)).toBe(false);
      await c.close();
    }
    expect((await stored(id)).segments[1]).toMatchObject({ start: 4, end: 6.5 });
  });
});
