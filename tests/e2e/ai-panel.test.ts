// The AI panel in the browser, against a server whose language model is a local endpoint speaking
// the chat completions protocol: make a summary and watch it stream, click a citation and the
// player seeks there, make chapters and export them, in English and Japanese, on a phone.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../../server/test/chat-server';
import { insightReplies } from '../../server/test/insight-replies';
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
  // Small pieces a few milliseconds apart: the page shows the text while it is written.
  chat.reply(insightReplies(8, 25));
  server = await startServerWithModel(chat);
  browser = await launch();
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'ai-e2e-'));
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await chat?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

/** Eight cues 50 s apart in a 400 s recording: three chapters' worth. */
const VTT = meetingVtt((i) => `Part ${i} of the meeting: we talk about topic ${i}.`);

const phonePage = async (cookie: string): Promise<Page> =>
  (await signedInContext(browser, server.url, cookie, { viewport: PHONE })).newPage();

describe('the AI panel', () => {
  it('streams a summary, seeks from a citation, makes and exports chapters, in English and Japanese at 375 px', async () => {
    const headers = await apiSignup(server.url, server.dataDir, `ai-${Date.now()}@example.com`);
    const id = await importCaptions(
      server.url,
      headers,
      { text: VTT, fileName: 'meeting.vtt', type: 'text/vtt', name: 'Weekly meeting' },
      { file: makeMedia(mediaDir, 'mp4', 400) },
    );
    const page = await phonePage(headers.cookie!);
    await page.goto(`${server.url}/transcript/${id}`);
    const panel = page.getByTestId('ai-panel');
    await panel.waitFor();

    // Summary: the text appears while it is written, then the made summary with its moments.
    await panel.getByRole('button', { name: 'Summarise' }).click();
    await panel.getByTestId('ai-stream').waitFor();
    await panel.getByTestId('ai-summary').waitFor({ timeout: 30_000 });
    await expect
      .poll(() => panel.getByTestId('ai-usage').innerText())
      .toBe('1 of 10 AI actions used this month');
    const cite = panel.getByTestId('ai-keyPoints').getByTestId('cite').nth(1);
    const start = Number(await cite.getAttribute('data-start'));
    expect(start).toBeGreaterThan(0);
    await cite.click();
    await expect.poll(() => mediaTime(page)).toBeGreaterThanOrEqual(start);
    expect(await overflows(page)).toBe(false);

    // Chapters: listed, marked on the player, the YouTube block from 00:00, WebVTT download.
    await panel.getByRole('tab', { name: 'Chapters' }).click();
    await panel.getByRole('button', { name: 'Make chapters' }).click();
    await panel.getByTestId('ai-chapters').waitFor({ timeout: 30_000 });
    expect(await panel.getByTestId('youtube-chapters').inputValue()).toBe(
      '00:00 Topic 0\n01:41 Topic 2\n03:21 Topic 4',
    );
    await page.getByTestId('chapter-marks').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByTestId('download-chapters-vtt').click(),
    ]);
    const vtt = readFileSync((await download.path())!, 'utf8');
    expect(vtt).toMatch(/^WEBVTT\n\n1\n00:00:00\.000 --> /);
    const txt = await (
      await fetch(`${server.url}/self-api/v1/transcripts/${id}/export?format=txt`, { headers })
    ).text();
    expect(txt.startsWith('00:00 Topic 0\n')).toBe(true);
    expect(await overflows(page)).toBe(false);

    // Japanese: the panel in Japanese, the summary made again in Japanese, streamed.
    // The language remembered as the switcher does.
    await page.context().addCookies([{ name: 'i18n_redirected', value: 'ja', url: server.url }]);
    await page.goto(`${server.url}/ja/transcript/${id}`);
    const ja = page.getByTestId('ai-panel');
    await ja.getByRole('tab', { name: 'チャプター' }).waitFor();
    await ja.getByText('結論').waitFor();
    expect(await ja.getByTestId('ai-language').inputValue()).toBe('ja');
    await ja.getByRole('button', { name: '作り直す' }).click();
    await ja.getByTestId('ai-stream').waitFor();
    await expect
      .poll(() => ja.getByTestId('ai-usage').innerText(), { timeout: 30_000 })
      .toBe('今月の AI 操作: 3 / 10 回');
    await ja.getByTestId('ai-summary').waitFor();
    const jaCite = ja.getByTestId('cite').first();
    await jaCite.click();
    await expect.poll(() => mediaTime(page)).toBeGreaterThanOrEqual(0);
    expect(chat.requests.at(-1)!.body.messages[1]!.content).toContain('Write in Japanese.');
    expect(await overflows(page)).toBe(false);
    await page.context().close();
  });
});
