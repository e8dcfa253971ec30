// The Templates tab of the AI panel in the browser, against a server whose language model is a
// local endpoint speaking the chat completions protocol: run a built-in template and watch the
// Markdown stream, click a citation and the player seeks, download the .md, write an own template
// in the dialog and run it; in English and Japanese, on a phone.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, streamed, type ChatServer } from '../../server/test/chat-server';
import { taskOf } from '../../server/test/insight-replies';
import { makeMedia } from '../../server/test/media';
import { launch, mediaTime, overflows, PHONE } from './browser';
import { importCaptions } from './imports';
import { meetingVtt, startServerWithModel } from './model-server';
import type { RunningServer } from './server';
import { apiSignup, signedInContext } from './session';

let browser: Browser;
let chat: ChatServer;
let server: RunningServer;
let mediaDir: string;

beforeAll(async () => {
  chat = await startChatServer();
  // Markdown citing the material's segments (and one that does not exist), written slowly.
  chat.reply((req, res) => {
    const nums = [...taskOf(req).material.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1]));
    const text = `## Highlights\n\n- It opens with topic 0 [${nums[0]}]\n- **Topic 3** comes later [${nums[3]}, 4242]\n\n<b>not html</b>`;
    return streamed(text.match(/.{1,5}/gs)!, { gapMs: 40 })(req, res);
  });
  server = await startServerWithModel(chat);
  browser = await launch();
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'ai-tpl-e2e-'));
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await chat?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

const VTT = meetingVtt((i) => `Part ${i}: we talk about topic ${i}.`);

const phonePage = async (cookie: string): Promise<Page> =>
  (await signedInContext(browser, server.url, cookie, { viewport: PHONE })).newPage();

describe('AI templates in the panel', () => {
  it('runs a built-in and an own template, streamed, with citations that seek, in English and Japanese at 375 px', async () => {
    const headers = await apiSignup(server.url, server.dataDir, `tpl-${Date.now()}@example.com`);
    const id = await importCaptions(
      server.url,
      headers,
      { text: VTT, fileName: 'episode.vtt', type: 'text/vtt', name: 'Episode 12' },
      { file: makeMedia(mediaDir, 'mp4', 400) },
    );
    const page = await phonePage(headers.cookie!);
    await page.goto(`${server.url}/transcript/${id}`);
    const panel = page.getByTestId('ai-panel');
    await panel.getByRole('tab', { name: 'Templates' }).click();
    const tab = panel.getByTestId('ai-templates');
    expect(await tab.getByTestId('template-select').inputValue()).toBe('show-notes');

    // A built-in template: the Markdown appears while it is written, then with its moments.
    await tab.getByTestId('template-run').click();
    await tab.getByTestId('ai-stream').waitFor();
    const out = tab.getByTestId('ai-markdown');
    await out.getByRole('heading', { name: 'Highlights' }).waitFor({ timeout: 30_000 });
    // The heading shows while the rest is still streaming: wait for the whole text.
    await expect.poll(() => out.innerText(), { timeout: 30_000 }).toContain('<b>not html</b>');
    expect(await out.locator('b, a').count()).toBe(0);
    const cites = out.getByTestId('cite');
    expect(await cites.allInnerTexts()).toEqual(['[00:01]', '[02:31]']);
    await cites.nth(1).click();
    await expect.poll(() => mediaTime(page)).toBeGreaterThanOrEqual(151);
    expect(taskOf(chat.requests.at(-1)!).instructions).toContain('Write show notes for this episode');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      tab.getByTestId('template-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe('Episode-12-show-notes.md');
    expect(readFileSync((await download.path())!, 'utf8')).toContain('- It opens with topic 0 [00:01]');
    expect(await overflows(page)).toBe(false);

    // An own template, written in the dialog, then run.
    await tab.getByTestId('template-new').click();
    const dialog = page.getByTestId('template-dialog');
    await dialog.getByTestId('template-name').fill('Newsletter');
    await dialog.getByTestId('template-instructions-input').fill('Write a newsletter with three highlights.');
    expect(await overflows(page)).toBe(false);
    await dialog.getByTestId('template-save').click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => tab.getByTestId('template-select').locator('option:checked').innerText())
      .toBe('Newsletter');
    await tab.getByTestId('template-run').click();
    await out.getByRole('heading', { name: 'Highlights' }).waitFor({ timeout: 30_000 });
    expect(taskOf(chat.requests.at(-1)!).instructions).toContain('Write a newsletter with three highlights.');

    // Japanese: the tab and the built-in templates in Japanese.
    await page.context().addCookies([{ name: 'i18n_redirected', value: 'ja', url: server.url }]);
    await page.goto(`${server.url}/ja/transcript/${id}`);
    const ja = page.getByTestId('ai-panel');
    await ja.getByRole('tab', { name: 'テンプレート' }).click();
    const jaTab = ja.getByTestId('ai-templates');
    await expect
      .poll(() => jaTab.getByTestId('template-select').locator('option:checked').innerText(), {
        timeout: 20_000,
      })
      .toBe('ショーノート');
    await jaTab.getByTestId('ai-markdown').waitFor();
    await jaTab.getByRole('button', { name: '作り直す' }).click();
    await jaTab.getByTestId('ai-stream').waitFor();
    await jaTab.getByTestId('ai-markdown').getByTestId('cite').first().waitFor({ timeout: 30_000 });
    expect(taskOf(chat.requests.at(-1)!).instructions).toContain('Write in Japanese.');
    expect(await overflows(page)).toBe(false);
    await page.context().close();
  });
});
