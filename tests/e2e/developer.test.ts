import http from 'node:http';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../server/modules/webhooks/signing';
import { waitFor } from '../../server/test/wait';
import { launch, newContext } from './browser';
import { startServer, type RunningServer } from './server';
import { apiSignup } from './session';

// The profile's developer cards in a real browser: an API key, the API reference, a webhook
// endpoint on a local receiver and its test event. SHOTS=1 keeps screenshots in tmp/screens.
let server: RunningServer;
let browser: Browser;
let receiver: http.Server;
let hookUrl: string;
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const shots = process.env.SHOTS === '1';

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/clipscribe`;
  server = await startServer({ ALLOW_PRIVATE_URLS: '127.0.0.1', TRUST_PROXY: 'true' });
  browser = await launch();
  if (shots) mkdirSync('tmp/screens', { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  receiver?.closeAllConnections();
  receiver?.close();
});

async function signedInPage(lang = ''): Promise<{ page: Page; email: string }> {
  const email = `dev-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  await apiSignup(server.url, server.dataDir, email);
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await page.goto(`${server.url}${lang}/login`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', 'a long secret 42');
  await page.click('button[type=submit]');
  await page.waitForURL(/\/dashboard/);
  return { page, email };
}

describe('developer settings in the profile', () => {
  it('creates an API key shown once, which then calls the API, and revokes it', async () => {
    const { page } = await signedInPage();
    await page.goto(`${server.url}/profile`);
    const card = page.getByTestId('api-keys');
    await card.getByText('No API keys yet.').waitFor();
    await card.locator('input[name=name]').fill('Nightly import');
    await card.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-api-key').textContent())!;
    expect(key).toMatch(/^csk_[0-9A-Za-z]{40}$/);
    await card.getByText('Nightly import').waitFor();
    expect(await card.textContent()).toContain(`${key.slice(0, 12)}…`);
    if (shots) await page.screenshot({ path: 'tmp/screens/profile-keys-1280.png', fullPage: true });

    const res = await fetch(`${server.url}/self-api/v1/transcripts`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);

    // Shown once: a reload lists the key by its prefix only.
    await page.reload();
    await card.getByText('Nightly import').waitFor();
    expect(await page.getByTestId('new-api-key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);

    page.once('dialog', (d) => void d.accept());
    await card.getByRole('button', { name: 'Revoke', exact: true }).click();
    await card.getByText('No API keys yet.').waitFor();
    const after = await fetch(`${server.url}/self-api/v1/transcripts`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(after.status).toBe(401);
  });

  it('adds a webhook endpoint and sends a signed test event to it', async () => {
    const { page } = await signedInPage();
    await page.goto(`${server.url}/profile`);
    const card = page.getByTestId('webhooks');
    await card.getByText('No webhook endpoints yet.').waitFor();
    // A private address the setting does not allow is refused with a field message.
    await card.locator('input[name=url]').fill('http://169.254.169.254/latest/meta-data/');
    await card.getByRole('button', { name: 'Add endpoint' }).click();
    await card.getByText('Enter a public http(s) address').waitFor();

    await card.locator('input[name=url]').fill(hookUrl);
    await card.getByRole('button', { name: 'Add endpoint' }).click();
    const endpoint = card.getByTestId('webhook-endpoint');
    await endpoint.waitFor();
    const secret = (await endpoint.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);

    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('Test event delivered (204)').waitFor();
    const log = endpoint.getByTestId('webhook-deliveries');
    await log.getByText('Delivered').waitFor();
    expect(await log.textContent()).toContain('204');
    if (shots) {
      await page.screenshot({ path: 'tmp/screens/profile-webhooks-1280.png', fullPage: true });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: 'tmp/screens/profile-webhooks-375.png', fullPage: true });
    }

    expect(received).toHaveLength(1);
    const got = received[0]!;
    const ok = verifyWebhook(
      secret,
      {
        id: String(got.headers['webhook-id']),
        timestamp: String(got.headers['webhook-timestamp']),
        signature: String(got.headers['webhook-signature']),
      },
      got.body,
    );
    expect(ok).toBe(true);

    // After a reload the secret is gone; the password brings it back, a wrong one does not.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await endpoint.waitFor();
    expect(await endpoint.getByTestId('webhook-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    await endpoint.getByRole('button', { name: 'Show secret' }).click();
    await endpoint.locator('input[name=password]').fill('not my password');
    await endpoint.getByRole('button', { name: 'Show', exact: true }).click();
    await endpoint.getByText('The password is incorrect.').waitFor();
    await endpoint.locator('input[name=password]').fill('a long secret 42');
    await endpoint.getByRole('button', { name: 'Show', exact: true }).click();
    expect(await endpoint.getByTestId('webhook-secret').textContent()).toBe(secret);

    // Rotation: a new secret, shown once; the old one still signs, beside it, for 24 hours.
    page.once('dialog', (d) => void d.accept());
    await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
    await endpoint.getByTestId('webhook-secret-overlap').waitFor();
    const fresh = (await endpoint.getByTestId('webhook-secret').textContent())!;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    const next = await waitFor(() => received[1]);
    const headers = {
      id: String(next.headers['webhook-id']),
      timestamp: String(next.headers['webhook-timestamp']),
      signature: String(next.headers['webhook-signature']),
    };
    expect(headers.signature.split(' ')).toHaveLength(2);
    expect(verifyWebhook(fresh, headers, next.body)).toBe(true);
    expect(verifyWebhook(secret, headers, next.body)).toBe(true);
    if (shots) {
      await page.screenshot({ path: 'tmp/screens/profile-webhook-rotated-1280.png', fullPage: true });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: 'tmp/screens/profile-webhook-rotated-375.png', fullPage: true });
    }
  });

  it('links the API reference, a page that works under the strict policy without scripts', async () => {
    const { page } = await signedInPage();
    await page.goto(`${server.url}/profile`);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.getByRole('link', { name: 'API reference' }).click();
    await page.waitForURL(`${server.url}/api/docs`);
    await page.getByRole('heading', { name: 'ClipScribe API reference' }).waitFor();
    expect(await page.textContent('body')).toContain('/self-api/v1/transcripts/{id}/export');
    expect(errors, errors.join('\n')).toEqual([]);
    const spec = await (await fetch(`${server.url}/api/openapi.json`)).json();
    expect(spec.openapi).toBe('3.1.0');
    if (shots) await page.screenshot({ path: 'tmp/screens/api-docs-1280.png' });
  });

  it('reads in another language', async () => {
    const { page } = await signedInPage('/de');
    await page.goto(`${server.url}/de/profile`);
    await page.getByTestId('api-keys').getByText('Noch keine API-Schlüssel.').waitFor();
    await page.getByTestId('webhooks').getByText('Noch keine Webhook-Endpunkte.').waitFor();
    if (shots) await page.screenshot({ path: 'tmp/screens/profile-de-1280.png', fullPage: true });
  });
});
