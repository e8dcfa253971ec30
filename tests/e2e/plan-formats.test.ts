import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testModelPath } from '../../server/test/test-model';
import { launch } from './browser';
import { watchConsole } from './console';
import { grantRank, startServer, type RunningServer } from './server';
import { importCaptions } from './imports';
import { apiSignup, signedInContext } from './session';

// A Free account learns that DOCX (and the other paid formats) exist, which plan
// has them and where to get it; a paid account downloads them.
const base = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;
let paidServer: RunningServer | undefined;

// Plan names are translated: the expectations take them from the locale files.
const plan = (lang: string): string =>
  (JSON.parse(readFileSync(`app/locales/${lang}.json`, 'utf8')) as { ranks: Record<string, string> }).ranks
    .STARTER!;

const SRT = '1\n00:00:01,000 --> 00:00:03,000\nHello from the export test\n';

const importSrt = (url: string, headers: Record<string, string>, name: string) =>
  importCaptions(url, headers, { text: SRT, fileName: 'talk.srt', name });

async function signedIn(url: string, cookie: string, locale?: string, width = 1280) {
  const ctx = await signedInContext(browser, url, cookie, locale ? { locale, acceptLanguage: locale } : {});
  const page = await ctx.newPage();
  await page.setViewportSize({ width, height: width < 500 ? 812 : 800 });
  return { ctx, page };
}

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await paidServer?.stop();
});

describe('export formats by plan', () => {
  it('shows a Free account DOCX locked, with the plan that has it and a link to the plans', async () => {
    const headers = await apiSignup(base, dataDir, `locked-${Date.now()}@example.com`);
    const id = await importSrt(base, headers, 'Locked formats');
    const { ctx, page } = await signedIn(base, headers.cookie!);
    const problems = watchConsole(page);
    await page.goto(`${base}/transcript/${id}`);

    const select = page.getByTestId('export-format');
    expect(await select.locator('option:not([disabled])').allInnerTexts()).toEqual(['TXT', 'SRT']);
    const docx = select.locator('option[value=docx]');
    expect(await docx.textContent()).toBe('DOCX — Starter and up');
    expect(await docx.evaluate((o: HTMLOptionElement) => o.disabled)).toBe(true);
    expect(await docx.getAttribute('aria-disabled')).toBe('true');
    // A locked format cannot be chosen, so the button still exports an allowed one.
    await expect(select.selectOption('docx', { timeout: 1000 })).rejects.toThrow();
    expect(await select.inputValue()).toBe('txt');

    const hint = page.getByTestId('locked-formats');
    await expect
      .poll(() => hint.textContent())
      .toContain('VTT, DOCX, and JSON with the Starter plan and up.');
    const link = hint.getByRole('link', { name: 'See plans' });
    expect(await link.getAttribute('href')).toBe('/pricing');
    await link.click();
    await page.waitForURL(`${base}/pricing`);
    await page.locator('article[data-plan=STARTER]').waitFor();
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('says it in the visitor’s language on the dashboard’s bulk export, phone-sized', async () => {
    const headers = await apiSignup(base, dataDir, `locked-de-${Date.now()}@example.com`);
    await importSrt(base, headers, 'Gesperrte Formate');
    for (const [lang, expected] of [
      [
        'de',
        {
          option: `DOCX — ab ${plan('de')}`,
          hint: `VTT, DOCX und JSON ab dem Tarif „${plan('de')}“.`,
          link: 'Tarife ansehen',
        },
      ],
      [
        'ja',
        {
          option: `DOCX — ${plan('ja')}プラン以上`,
          hint: `VTT、DOCX、JSONは${plan('ja')}プラン以上で利用できます。`,
          link: 'プランを見る',
        },
      ],
      [
        'zh',
        {
          option: `DOCX — ${plan('zh')}及以上套餐`,
          hint: `VTT、DOCX和JSON 需${plan('zh')}及以上套餐。`,
          link: '查看套餐',
        },
      ],
    ] as const) {
      const { ctx, page } = await signedIn(base, headers.cookie!, lang, 375);
      const problems = watchConsole(page);
      await page.goto(`${base}/${lang}/dashboard`);
      await page.locator('[data-testid=transcripts] input[type=checkbox]').first().check();
      const select = page.getByTestId('export-format');
      expect(await select.locator('option[value=docx]').textContent()).toBe(expected.option);
      const hint = page.getByTestId('locked-formats');
      expect(await hint.textContent()).toContain(expected.hint);
      const link = hint.getByRole('link', { name: expected.link });
      expect(await link.getAttribute('href')).toBe(`/${lang}/pricing`);
      // The hint stays inside a phone's width.
      const box = (await hint.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      expect(problems).toEqual([]);
      await ctx.close();
    }
  });

  it('lets a paid account download DOCX, with nothing shown locked', async () => {
    const env = { TRUST_PROXY: 'true', WHISPER_MODEL: await testModelPath(), WHISPER_THREADS: '1' };
    paidServer = await startServer(env, { keepData: true });
    const email = `paid-${Date.now()}@example.com`;
    const headers = await apiSignup(paidServer.url, paidServer.dataDir, email);
    const id = await importSrt(paidServer.url, headers, 'Paid export');
    // The operator's command (it needs the embedded database to itself).
    paidServer = await grantRank(paidServer, env, email, 'STARTER');

    const { ctx, page } = await signedIn(paidServer.url, headers.cookie!);
    await page.goto(`${paidServer.url}/transcript/${id}`);
    const select = page.getByTestId('export-format');
    await expect
      .poll(() => select.locator('option:not([disabled])').allInnerTexts())
      .toEqual(['TXT', 'SRT', 'VTT', 'DOCX', 'JSON']);
    expect(await page.getByTestId('locked-formats').count()).toBe(0);
    await select.selectOption('docx');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
    expect(download.suggestedFilename()).toBe('Paid export.docx');
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 2).toString()).toBe('PK'); // a Word document is a zip
    expect(bytes.length).toBeGreaterThan(1000);

    // JSON is JSON on the wire too: it arrives as a file, not as a "Request Error".
    await select.selectOption('json');
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
    expect(json.suggestedFilename()).toBe('Paid export.json');
    const doc = JSON.parse(readFileSync((await json.path())!, 'utf8')) as {
      name: string;
      segments: { text: string }[];
    };
    expect(doc.name).toBe('Paid export');
    expect(doc.segments.map((s) => s.text)).toEqual(['Hello from the export test']);
    await ctx.close();
    // Two server starts and an operator command: more than one page's worth of time.
  }, 180_000);
});
