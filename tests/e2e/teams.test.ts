import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch } from './browser';
import { watchConsole } from './console';
import { mailTo } from './outbox';
import { grantRank, startServer, type RunningServer } from './server';
import { apiSignup, signedInContext } from './session';

// Two accounts working in one team workspace (issue #26), in Chromium against the production
// build: the owner (on a plan with seats) creates the team and invites; the invitee accepts from
// the mail's link; roles change; a removed member loses access at once.
let browser: Browser;
let server: RunningServer;
const SHOTS = 'tmp/teams-shots';
const stamp = Date.now();
const ownerEmail = `team-owner-${stamp}@example.com`;
const memberEmail = `team-member-${stamp}@example.com`;
let owner: Record<string, string>;
let member: Record<string, string>;

async function api<T = unknown>(headers: Record<string, string>, method: string, p: string, body?: unknown) {
  const res = await fetch(`${server.url}${p}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: T };
}

async function pageOf(headers: Record<string, string>, width = 1280, locale?: string) {
  const ctx = await signedInContext(
    browser,
    server.url,
    headers.cookie!,
    locale ? { locale, acceptLanguage: locale } : {},
  );
  const page = await ctx.newPage();
  await page.setViewportSize({ width, height: width < 500 ? 812 : 900 });
  return { ctx, page };
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
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('a team workspace in the browser', () => {
  let teamId = '';

  it('lets the owner create a team from the header and invite a colleague', async () => {
    const { ctx, page } = await pageOf(owner);
    const problems = watchConsole(page);
    await page.goto(`${server.url}/dashboard`);
    expect(await page.getByTestId('workspace-current').textContent()).toBe('Personal');
    await page.getByTestId('workspace-switcher').locator('summary').click();
    await page.getByTestId('workspace-create-link').click();
    await page.waitForURL(`${server.url}/workspace/new`);
    const form = page.getByTestId('create-workspace-form');
    await form.getByLabel('Name', { exact: true }).fill('Podcast team');
    await form.getByRole('button', { name: 'Create workspace' }).click();
    await page.waitForURL(`${server.url}/workspace`);
    await expect.poll(() => page.getByTestId('workspace-current').textContent()).toBe('Podcast team');
    await expect
      .poll(() => page.getByTestId('workspace-seats').textContent())
      .toContain('1 of 3 seats taken');

    const invite = page.getByTestId('invite-form');
    await invite.getByLabel('Email address').fill(memberEmail);
    await invite.getByLabel('Role').selectOption('editor');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => page.getByTestId('invitation-list').textContent()).toContain(memberEmail);
    await expect
      .poll(() => page.getByTestId('workspace-seats').textContent())
      .toContain('2 of 3 seats taken');
    await shot(page, 'settings-owner');
    const mine = await api<{ items: { id: string; kind: string }[] }>(
      owner,
      'GET',
      '/self-api/v1/workspaces',
    );
    teamId = mine.data.items.find((w) => w.kind === 'team')!.id;
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('lets the invitee accept from the mail’s link and work in the team', async () => {
    const mail = await mailTo(server.dataDir, memberEmail);
    expect(mail.subject).toContain('Podcast team');
    const link = /https?:\/\/\S+\/invitation\?token=\S+/.exec(mail.text ?? '')![0];
    const { ctx, page } = await pageOf(member);
    const problems = watchConsole(page);
    await page.goto(link.replace(/^https?:\/\/[^/]+/, server.url));
    await page.getByTestId('invitation').waitFor();
    expect(await page.getByTestId('invitation').textContent()).toContain('as Editor');
    await shot(page, 'invitation');
    await page.getByTestId('invitation-accept').click();
    await page.waitForURL(`${server.url}/dashboard`);
    await expect.poll(() => page.getByTestId('workspace-current').textContent()).toBe('Podcast team');
    // The link worked once.
    await page.goto(link.replace(/^https?:\/\/[^/]+/, server.url));
    await page.getByTestId('invitation-invalid').waitFor();
    expect(problems.filter((p) => !p.includes('/invitations/preview') && !p.includes('404'))).toEqual([]);
    await ctx.close();
  });

  it('shows the owner’s role change to the member on their next page', async () => {
    const { ctx, page } = await pageOf(owner);
    await page.goto(`${server.url}/workspace?workspace=${teamId}`);
    const rows = page.getByTestId('member-row');
    await expect.poll(() => rows.count()).toBe(2);
    await rows.filter({ hasText: memberEmail }).getByTestId('member-role').selectOption('viewer');
    await expect
      .poll(async () =>
        (
          await api<{ items: { role: string }[] }>(owner, 'GET', `/self-api/v1/workspaces/${teamId}/members`)
        ).data.items.map((m) => m.role),
      )
      .toEqual(['owner', 'viewer']);
    await ctx.close();

    const m = await pageOf(member);
    // A link naming the workspace switches to it (the member's new browser has no cookie yet).
    await m.page.goto(`${server.url}/workspace?workspace=${teamId}`);
    await expect.poll(() => m.page.getByRole('heading', { level: 1 }).textContent()).toBe('Podcast team');
    expect(await m.page.locator('main').textContent()).toContain('Your role: Viewer');
    expect(await m.page.getByTestId('workspace-invite').count()).toBe(0);
    await m.ctx.close();
  });

  it('fits a phone in German', async () => {
    const { ctx, page } = await pageOf(owner, 375, 'de');
    const problems = watchConsole(page);
    await page.goto(`${server.url}/de/workspace?workspace=${teamId}`);
    await page.getByTestId('member-list').waitFor();
    await shot(page, 'settings-phone-de-closed');
    const sideways = await page.evaluate(
      () => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth,
    );
    expect(sideways).toBe(0);
    await page.getByTestId('workspace-switcher').locator('summary').click();
    await shot(page, 'settings-phone-de');
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('ends a removed member’s access at once', async () => {
    const { ctx, page } = await pageOf(owner);
    await page.goto(`${server.url}/workspace?workspace=${teamId}`);
    page.once('dialog', (d) => void d.accept());
    await page
      .getByTestId('member-row')
      .filter({ hasText: memberEmail })
      .getByRole('button', { name: 'Remove' })
      .click();
    await expect.poll(() => page.getByTestId('member-row').count()).toBe(1);
    await ctx.close();
    expect((await api(member, 'GET', `/self-api/v1/workspaces/${teamId}`)).code).toBe(40461);
    const m = await pageOf(member);
    await m.page.goto(`${server.url}/dashboard?workspace=${teamId}`);
    expect(await m.page.getByTestId('workspace-current').textContent()).toBe('Personal');
    await m.ctx.close();
  });
});
