import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, overflows, PHONE } from './browser';
import { watchConsole } from './console';
import { importTalk } from './imports';
import { mailTo } from './outbox';
import { waitFor } from '../../server/test/wait';
import { grantRank, startServer, type RunningServer } from './server';
import { apiSignup, signedInContext } from './session';

// Comments in a team workspace (issue #26 part 4), in Chromium against the production build: the
// owner comments on a segment at 1280 px and mentions the editor, who gets a mail, replies and
// resolves the thread on a phone (375 px); neither page scrolls sideways.
let browser: Browser;
let server: RunningServer;
const SHOTS = 'tmp/comments-shots';
const stamp = Date.now();
const ownerEmail = `comments-owner-${stamp}@example.com`;
const memberEmail = `comments-member-${stamp}@example.com`;
let owner: Record<string, string>;
let member: Record<string, string>;
let teamId = '';
let transcriptId = '';

async function api<T = unknown>(headers: Record<string, string>, method: string, p: string, body?: unknown) {
  const res = await fetch(`${server.url}${p}`, {
    method,
    // The server was restarted on another port: the origin is its current one.
    headers: { ...headers, origin: server.url, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: T };
}

async function pageOf(headers: Record<string, string>, viewport: { width: number; height: number }) {
  const ctx = await signedInContext(browser, server.url, headers.cookie!, { viewport });
  return { ctx, page: await ctx.newPage() };
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launch();
  const env = { TRUST_PROXY: 'true', WHISPER_MODEL_AUTO_DOWNLOAD: 'false' };
  server = await startServer(env, { keepData: true });
  owner = await apiSignup(server.url, server.dataDir, ownerEmail);
  member = await apiSignup(server.url, server.dataDir, memberEmail);
  // A team needs seats: the operator gives the owner a plan (the embedded database to itself).
  server = await grantRank(server, env, ownerEmail, 'BASIC');
  const made = await api<{ id: string }>(owner, 'POST', '/self-api/v1/workspaces', { name: 'Radio show' });
  expect(made.code, JSON.stringify(made)).toBe(200);
  teamId = made.data.id;
  await api(owner, 'POST', `/self-api/v1/workspaces/${teamId}/invitations`, {
    email: memberEmail,
    role: 'editor',
  });
  // The newest mail to the editor is the invitation once it is written (the sign-up's before).
  const token = await waitFor(
    async () =>
      /invitation\?token=([\w-]+)/.exec((await mailTo(server.dataDir, memberEmail)).text ?? '')?.[1],
    { ms: 15_000, everyMs: 250, what: 'the invitation mail' },
  );
  expect((await api(member, 'POST', '/self-api/v1/invitations/accept', { token })).code).toBe(200);
  transcriptId = await importTalk(
    server.url,
    { ...owner, origin: server.url, 'x-workspace': teamId },
    'Episode 12',
  );
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('comments in the browser', () => {
  it('lets the owner comment on a segment and mention the editor (1280 px)', async () => {
    const { ctx, page } = await pageOf(owner, { width: 1280, height: 900 });
    const problems = watchConsole(page);
    await page.goto(`${server.url}/transcript/${transcriptId}?workspace=${teamId}&seg=1&t=5`);
    const panel = page.getByTestId('comments');
    await panel.waitFor();
    // A link to the second segment (4.0–6.5 s) puts the player there: the comment is about it.
    await expect.poll(() => panel.textContent(), { timeout: 30_000 }).toContain('About the segment at 0:04');
    await panel.getByPlaceholder('Write a comment…').fill('Please check the intro');
    const mention = panel.getByRole('button', { name: /^@/ });
    await expect.poll(() => mention.count()).toBe(1);
    await mention.click();
    expect(await mention.getAttribute('aria-pressed')).toBe('true');
    expect(await panel.getByPlaceholder('Write a comment…').inputValue()).toMatch(
      /Please check the intro @\S+/,
    );
    await panel.getByRole('button', { name: 'Comment', exact: true }).click();
    const thread = panel.locator('li[id^="comment-"]');
    await expect.poll(() => thread.count()).toBe(1);
    expect(await thread.textContent()).toContain('Please check the intro');
    expect(await overflows(page)).toBe(false);
    await shot(page, 'owner-1280');

    const stored = await api<{ items: { mentions: string[]; start: number }[] }>(
      owner,
      'GET',
      `/self-api/v1/transcripts/${transcriptId}/comments`,
    );
    expect(stored.data.items).toHaveLength(1);
    expect(stored.data.items[0]!.mentions).toHaveLength(1);
    expect(stored.data.items[0]!.start).toBe(4);
    // The mentioned editor gets a mail with a link to the moment.
    await expect
      .poll(async () => (await mailTo(server.dataDir, memberEmail)).text ?? '', { timeout: 15_000 })
      .toContain(`/transcript/${transcriptId}`);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('lets the editor reply and resolve on a phone (375 px)', async () => {
    const { ctx, page } = await pageOf(member, PHONE);
    const problems = watchConsole(page);
    await page.goto(`${server.url}/transcript/${transcriptId}?workspace=${teamId}`);
    const panel = page.getByTestId('comments');
    await panel.waitFor();
    const thread = panel.locator('li[id^="comment-"]');
    await expect.poll(() => thread.count()).toBe(1);
    await thread.getByRole('button', { name: 'Reply', exact: true }).click();
    await thread.getByRole('textbox', { name: 'Reply' }).fill('Done, the intro is fixed');
    await thread.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => thread.textContent()).toContain('Done, the intro is fixed');
    expect(await overflows(page)).toBe(false);
    await shot(page, 'member-375-reply');

    await thread.getByRole('button', { name: 'Resolve', exact: true }).click();
    // A resolved thread is put away; the panel offers to show it again.
    await expect.poll(() => thread.count()).toBe(0);
    await panel.getByRole('checkbox', { name: 'Show 1 resolved' }).check();
    await expect.poll(() => thread.count()).toBe(1);
    expect(await thread.textContent()).toContain('Resolved');
    expect(await overflows(page)).toBe(false);
    await shot(page, 'member-375-resolved');
    const stored = await api<{
      items: { resolved: { at: string; by: string } | null; parent_id: string | null }[];
    }>(owner, 'GET', `/self-api/v1/transcripts/${transcriptId}/comments`);
    expect(stored.data.items.find((c) => !c.parent_id)?.resolved).toMatchObject({ at: expect.any(String) });
    expect(stored.data.items.filter((c) => c.parent_id)).toHaveLength(1);
    expect(problems).toEqual([]);
    await ctx.close();
  });
});
