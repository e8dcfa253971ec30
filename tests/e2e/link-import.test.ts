import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinkServer } from '../../server/test/link-server';
import { makeMedia } from '../../server/test/media';
import { testModelPath } from '../../server/test/test-model';
import { launch, newContext } from './browser';
import { watchConsole } from './console';
import { startServer, type RunningServer } from './server';
import { apiSignup } from './session';

// Import from a link in a real browser: a media file served by a local web server is pasted in
// the upload panel, downloads (its own stage, with a percent) and is transcribed. SHOTS=1 keeps
// screenshots in tmp/screens.
let server: RunningServer;
let browser: Browser;
let site: Awaited<ReturnType<typeof startLinkServer>>;
const shots = process.env.SHOTS === '1';
const run = promisify(execFile);

beforeAll(async () => {
  const clip = readFileSync(makeMedia(path.resolve('tmp/test-media'), 'mp3', 6));
  // Slow enough to watch: about 9 s for the whole file.
  site = await startLinkServer(clip, { pieces: 60, delayMs: 150 });
  server = await startServer({
    // Only the local web server's address; every other private address stays refused.
    ALLOW_PRIVATE_URLS: '127.0.0.1',
    WHISPER_MODEL: await testModelPath(),
    WHISPER_THREADS: '1',
  });
  browser = await launch();
  if (shots) mkdirSync('tmp/screens', { recursive: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await site?.close();
});

async function signedInPage(lang = '', width = 1280) {
  const email = `link-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const headers = await apiSignup(server.url, server.dataDir, email);
  const ctx = await newContext(browser, { locale: lang ? lang.slice(1) : 'en-US' });
  const [name, value] = headers.cookie!.split('=') as [string, string];
  await ctx.addCookies([{ name, value, url: server.url, httpOnly: true }]);
  const page = await ctx.newPage();
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${server.url}${lang}/dashboard`);
  await page.locator('[data-testid=quota]').waitFor();
  return { ctx, page, headers };
}

const paste = async (page: Page, url: string) => {
  await page.getByTestId('link-input').fill(url);
  await page.getByTestId('link-submit').click();
};

describe('import from a link in the browser', () => {
  it('downloads with its progress shown, then transcribes', async () => {
    const { ctx, page } = await signedInPage();
    const problems = watchConsole(page);
    await paste(page, `${site.base}/talk.mp3`);
    const row = page.locator('[data-upload]').first();
    await row.getByText('From a link').waitFor();
    // The download is a stage of its own, with a percent from Content-Length.
    await page
      .getByText(/Downloading from the link — \d+%/)
      .first()
      .waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('link-input').inputValue()).toBe('');
    if (shots) await page.screenshot({ path: 'tmp/screens/link-import-1280-en.png', fullPage: true });
    await page.locator('[data-testid=transcripts] [data-status=done]').first().waitFor({ timeout: 90_000 });
    await row.getByText('Open').click();
    await page.waitForURL(/\/transcript\/[0-9a-f-]{36}$/);
    // The URL changes before the page does: wait for the transcript's own header.
    const source = page.getByRole('link', { name: 'From a link' });
    await source.waitFor();
    await page.locator('[data-status=done]').first().waitFor();
    expect(await source.getAttribute('href')).toBe(`${site.base}/talk.mp3`);
    expect(problems).toEqual([]);
    await ctx.close();
  }, 150_000);

  it('says inline what is wrong with a link, in the page language', async () => {
    const { ctx, page } = await signedInPage('', 375);
    await paste(page, 'ftp://example.com/talk.mp3');
    await page
      .getByTestId('link-error')
      .getByText('Enter an address starting with http:// or https://.')
      .waitFor();
    expect(await page.getByTestId('link-input').getAttribute('aria-invalid')).toBe('true');
    await paste(page, 'http://10.1.2.3/talk.mp3');
    await page.getByTestId('link-error').getByText("it doesn't lead to a public server").waitFor();
    if (shots) await page.screenshot({ path: 'tmp/screens/link-import-375-en.png', fullPage: true });
    await ctx.close();

    const ja = await signedInPage('/ja', 375);
    const problems = watchConsole(ja.page);
    await ja.page.getByText('またはリンクから').waitFor();
    await paste(ja.page, `${site.base}/page.html`);
    // A web page without yt-dlp on the server: the transcript fails with the reason, translated.
    await ja.page.getByText('動画や音声のファイルではなく').first().waitFor({ timeout: 20_000 });
    if (shots) await ja.page.screenshot({ path: 'tmp/screens/link-import-375-ja.png', fullPage: true });
    await ja.page.setViewportSize({ width: 1280, height: 900 });
    if (shots) await ja.page.screenshot({ path: 'tmp/screens/link-import-1280-ja.png', fullPage: true });
    expect(problems).toEqual([]);
    await ja.ctx.close();
  }, 60_000);

  it("runs the README's API example with a link and only an API key", async () => {
    const session = await apiSignup(server.url, server.dataDir, `script-link-${Date.now()}@example.com`);
    const made = await fetch(`${server.url}/self-api/v1/api-keys`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'link example' }),
    });
    const key = ((await made.json()) as { data: { key: string } }).data.key;
    const work = mkdtempSync(path.join(os.tmpdir(), 'cs-link-example-'));
    const { stdout } = await run(
      process.execPath,
      [path.resolve('scripts/api-example.mjs'), `${site.base}/talk.mp3`, 'txt'],
      {
        cwd: work,
        env: { ...process.env, CLIPSCRIBE_URL: server.url, CLIPSCRIBE_KEY: key },
        timeout: 120_000,
      },
    );
    expect(stdout).toMatch(/downloading \d+%/);
    expect(stdout).toMatch(/done 100%/);
    expect(stdout).toContain('saved talk.txt');
  }, 150_000);
});
