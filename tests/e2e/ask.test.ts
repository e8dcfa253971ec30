// The Ask tab in the browser, against a server whose language model is a local endpoint speaking
// the chat completions protocol: ask, watch the answer stream, click its citation and the player
// seeks there; a question the transcript does not answer; clear; in English and Japanese at 375 px.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../../server/test/chat-server';
import { askReplies } from '../../server/test/ask-replies';
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
  // Small pieces a few milliseconds apart: the page shows the answer while it is written.
  chat.reply(askReplies(6, 40));
  server = await startServerWithModel(chat);
  browser = await launch();
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'ask-e2e-'));
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await chat?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

const VTT = meetingVtt((i) =>
  i === 5
    ? 'The piano tuner comes on Thursday morning.'
    : `Part ${i} of the meeting: we talk about topic ${i}.`,
);

const phonePage = async (cookie: string): Promise<Page> =>
  (await signedInContext(browser, server.url, cookie, { viewport: PHONE })).newPage();

describe('the Ask tab', () => {
  it('streams a cited answer, seeks from its citation, says when it cannot find, in English and Japanese at 375 px', async () => {
    const headers = await apiSignup(server.url, server.dataDir, `ask-${Date.now()}@example.com`);
    const id = await importCaptions(
      server.url,
      headers,
      { text: VTT, fileName: 'meeting.vtt', type: 'text/vtt', name: 'Weekly meeting' },
      { file: makeMedia(mediaDir, 'mp4', 400) },
    );
    const page = await phonePage(headers.cookie!);
    await page.goto(`${server.url}/transcript/${id}`);
    const panel = page.getByTestId('ai-panel');
    await panel.getByRole('tab', { name: 'Ask' }).click();
    const tab = panel.getByTestId('ask-tab');
    await tab.getByText('Ask anything about this transcript.', { exact: false }).waitFor();

    await tab.getByLabel('Your question').fill('When does the piano tuner come?');
    await tab.getByRole('button', { name: 'Ask', exact: true }).click();
    // The answer's text appears while it is written, then the answer with its moment.
    await tab.getByTestId('ask-stream').waitFor();
    const answer = tab.getByTestId('ask-answer');
    await answer.waitFor({ timeout: 30_000 });
    expect(await answer.innerText()).toContain('The transcript mentions piano here.');
    await expect
      .poll(() => tab.getByTestId('ask-usage').innerText())
      .toBe('1 of 10 AI actions used this month');
    const cite = answer.getByTestId('cite');
    expect(await cite.innerText()).toBe('[04:11]');
    await cite.click();
    await expect.poll(() => mediaTime(page)).toBeGreaterThanOrEqual(251);
    expect(await overflows(page)).toBe(false);

    // A question the transcript does not answer; the earlier turn went to the model with it.
    await tab.getByLabel('Your question').fill('Who won the football match?');
    await tab.getByLabel('Your question').press('Enter');
    await tab.getByTestId('ask-not-found').waitFor({ timeout: 30_000 });
    expect(await tab.getByTestId('ask-not-found').innerText()).toBe(
      'I could not find that in the transcript.',
    );
    expect(chat.requests.at(-1)!.body.messages[1]!.content).toContain(
      'Question: When does the piano tuner come?',
    );
    // The conversation is kept: it is there after a reload.
    await page.reload();
    await panel.getByRole('tab', { name: 'Ask' }).click();
    await expect.poll(() => tab.getByTestId('ask-user').count()).toBe(2);
    await tab.getByRole('button', { name: 'Clear conversation' }).click();
    await tab.getByText('Ask anything about this transcript.', { exact: false }).waitFor();
    expect(await tab.getByTestId('ask-user').count()).toBe(0);

    // Japanese: the tab in Japanese; the answer streamed, its citation seeks; "could not find".
    await page.context().addCookies([{ name: 'i18n_redirected', value: 'ja', url: server.url }]);
    await page.goto(`${server.url}/ja/transcript/${id}`);
    const ja = page.getByTestId('ai-panel');
    await ja.getByRole('tab', { name: '質問' }).click();
    const jaTab = ja.getByTestId('ask-tab');
    await jaTab.getByLabel('質問').fill('piano tuner はいつ来ますか？');
    await jaTab.getByRole('button', { name: '質問する' }).click();
    await jaTab.getByTestId('ask-stream').waitFor();
    await jaTab.getByTestId('ask-answer').waitFor({ timeout: 30_000 });
    await page.evaluate(() => {
      const m = document.querySelector('video, audio') as HTMLMediaElement;
      m.pause();
      m.currentTime = 0;
    });
    await jaTab.getByTestId('cite').click();
    await expect.poll(() => mediaTime(page)).toBeGreaterThanOrEqual(251);
    await jaTab.getByLabel('質問').fill('サッカーの試合は誰が勝ちましたか？');
    await jaTab.getByRole('button', { name: '質問する' }).click();
    await jaTab.getByText('文字起こしの中にその情報は見つかりませんでした。').waitFor({ timeout: 30_000 });
    await expect.poll(() => jaTab.getByTestId('ask-usage').innerText()).toBe('今月の AI 操作: 4 / 10 回');
    expect(await overflows(page)).toBe(false);
    await page.context().close();
  });
});
