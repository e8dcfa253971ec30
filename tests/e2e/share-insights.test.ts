// Share links with the AI outputs, in the browser: the owner creates a link that includes the
// summary and chapters, a visitor (logged out) sees them and a citation seeks the shared player;
// the owner then takes them off the same link and puts them back from its row in the share panel,
// and the visitor's page follows, the link's address unchanged.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../../server/test/chat-server';
import { insightReplies } from '../../server/test/insight-replies';
import { makeMedia } from '../../server/test/media';
import { waitFor } from '../../server/test/wait';
import { launch, mediaTime, newContext, overflows, PHONE } from './browser';
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
  chat.reply(insightReplies());
  server = await startServerWithModel(chat);
  browser = await launch();
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'share-ai-e2e-'));
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await chat?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

const VTT = meetingVtt((i) => `Part ${i} of the meeting: we talk about topic ${i}.`);

/** A summary and chapters made through the API, waited for. */
async function makeInsights(headers: Record<string, string>, id: string) {
  const call = (method: string, body?: unknown) =>
    fetch(`${server.url}/self-api/v1/transcripts/${id}/insights`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ code: number; data: any }>);
  for (const kind of ['summary', 'chapters']) {
    const made = await call('POST', { kind, language: 'en' });
    expect(made.code, JSON.stringify(made)).toBe(200);
    await waitFor(async () => (await call('GET')).data[kind]?.status === 'done', {
      ms: 30_000,
      what: kind,
    });
  }
}

/** The public page of a link, opened logged out at `viewport`. */
async function visitor(url: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await (await newContext(browser, viewport ? { viewport } : {})).newPage();
  const res = await page.goto(`${server.url}${url}`);
  expect(res?.status()).toBe(200);
  await page.locator('[data-testid=segments]').waitFor();
  return page;
}

describe('share links with the summary and chapters', () => {
  it('includes them when asked at creation, and takes them off and back on an existing link', async () => {
    const headers = await apiSignup(server.url, server.dataDir, `share-ai-${Date.now()}@example.com`);
    const id = await importCaptions(
      server.url,
      headers,
      { text: VTT, fileName: 'meeting.vtt', type: 'text/vtt', name: 'Weekly meeting' },
      { file: makeMedia(mediaDir, 'mp4', 400) },
    );
    await makeInsights(headers, id);

    // The owner creates a link with them, from the share panel.
    const owner = await (await signedInContext(browser, server.url, headers.cookie!)).newPage();
    await owner.goto(`${server.url}/transcript/${id}`);
    const panel = owner.getByTestId('share-panel');
    await panel.getByTestId('share-include-insights').check();
    await panel.getByRole('button', { name: 'Create link' }).click();
    const row = panel.locator('[data-testid=share-links] li[data-share-state=active]');
    await row.waitFor();
    const toggle = row.getByTestId('share-link-insights');
    expect(await toggle.isChecked()).toBe(true);
    const url = new URL(await row.getByRole('textbox', { name: 'Share link' }).inputValue()).pathname;

    // A visitor on a phone sees both; a citation seeks the shared player.
    const phone = await visitor(url, PHONE);
    await phone.getByTestId('shared-summary').waitFor();
    await phone.getByTestId('shared-chapters').waitFor();
    expect(await phone.getByTestId('shared-chapters').innerText()).toContain('Topic 2');
    const cite = phone.getByTestId('shared-summary').getByTestId('cite').nth(1);
    const start = Number(await cite.getAttribute('data-start'));
    expect(start).toBeGreaterThan(0);
    await cite.click();
    await expect.poll(() => mediaTime(phone)).toBeGreaterThanOrEqual(start);
    expect(await overflows(phone)).toBe(false);

    // The owner takes them off the same link: the visitor's next look has the transcript alone.
    await toggle.uncheck();
    await owner.getByText('Share link updated.').waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await phone.reload();
    await phone.locator('[data-testid=segments]').waitFor();
    expect(await phone.getByTestId('shared-summary').count()).toBe(0);
    expect(await phone.getByTestId('shared-chapters').count()).toBe(0);

    // Kept after a reload of the owner's page, and put back the same way.
    await owner.reload();
    const again = owner
      .getByTestId('share-panel')
      .locator('[data-testid=share-links] li[data-share-state=active]')
      .getByTestId('share-link-insights');
    await again.waitFor();
    expect(await again.isChecked()).toBe(false);
    await again.check();
    await expect.poll(() => again.isChecked()).toBe(true);
    await phone.reload();
    await phone.getByTestId('shared-summary').waitFor();
    expect(await phone.getByTestId('shared-chapters').count()).toBe(1);
    expect(new URL(phone.url()).pathname).toBe(url);

    // A revoked link offers no option to change.
    owner.once('dialog', (d) => void d.accept());
    await owner
      .getByTestId('share-panel')
      .locator('[data-testid=share-links] li[data-share-state=active]')
      .getByRole('button', { name: 'Revoke' })
      .click();
    await owner.locator('[data-testid=share-links] li[data-share-state=revoked]').waitFor();
    expect(await owner.getByTestId('share-link-insights').count()).toBe(0);
    await phone.context().close();
    await owner.context().close();
    // Two outputs made, a media file imported and two pages on a shared machine: more than the default.
  }, 180_000);
});
