import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { hashPassword } from '../modules/auth/passwords';
import type { MailMessage } from '../modules/mail/mailer';
import { verifyWebhook } from '../modules/webhooks/signing';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { testApp } from '../test/harness';
import { makeMedia } from '../test/media';
import { testModelPath } from '../test/test-model';
import { tusUpload } from '../test/tus';
import { signedInUser } from '../test/users';
import { WEBHOOK_EVENTS } from '../../common/webhook-events';

type Json = { code: number; message: string; message_key?: string; data: any };
type Headers = Record<string, string>;

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

// A local receiver: answers with the next status of `plan` (200 once it runs out).
let receiver: http.Server;
let hookUrl: string;
let received: Received[] = [];
let plan: number[] = [];
const mails: MailMessage[] = [];
let h: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(plan.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const model = await testModelPath();
  h = await testApp(
    {},
    {
      DATA_DIR: path.resolve('tmp/test-data-webhooks'),
      WHISPER_MODEL: model,
      WHISPER_THREADS: '1',
      // Only the receiver's address: anything else private stays refused.
      ALLOW_PRIVATE_URLS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '0.05,0.05',
      WEBHOOK_DISABLE_AFTER: '2',
      WEBHOOK_TIMEOUT_MS: '1500',
      PUBLIC_URL: 'http://app.example',
    },
    {
      mailer: {
        send: async (m: MailMessage) => void mails.push(m),
        close: () => undefined,
      } as never,
      worker: true,
    },
  );
});
afterAll(async () => {
  await h?.close();
  receiver.closeAllConnections();
  receiver.close();
});
beforeEach(() => {
  received = [];
  plan = [];
});

async function call(method: string, p: string, headers: Headers, body?: unknown) {
  const res = await h.app.request(`/self-api/v1${p}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { res, json: (await res.json()) as Json };
}

async function until<T>(check: () => Promise<T | undefined | null | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function importSrt(headers: Headers) {
  const form = new FormData();
  form.set('file', new File(['1\n00:00:01,000 --> 00:00:02,000\nHi\n'], 'a.srt'));
  const res = await h.app.request('/self-api/v1/transcripts/import', { method: 'POST', headers, body: form });
  return ((await res.json()) as Json).data.id as string;
}

describe('webhook endpoints', () => {
  it('show the whsec_ secret once at creation, never in a read, not to a session nor to a key', async () => {
    const u = await signedInUser(h.db);
    const { json } = await call('POST', '/webhooks', u.headers, { url: hookUrl });
    expect(json.code, JSON.stringify(json)).toBe(200);
    expect(json.data.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(json.data.events).toEqual([...WEBHOOK_EVENTS]);
    const list = await call('GET', '/webhooks', u.headers);
    expect(list.json.data.items[0].secret).toBeUndefined();
    const one = await call('GET', `/webhooks/${json.data.id}`, u.headers);
    expect(one.json.data.secret).toBeUndefined();
    expect(JSON.stringify(one.json)).not.toContain(json.data.secret);
    for (const scope of ['read', 'full']) {
      const key = await call('POST', '/api-keys', u.headers, { name: scope, scope });
      const bearer = { authorization: `Bearer ${key.json.data.key}` };
      const read = await call('GET', `/webhooks/${json.data.id}`, bearer);
      expect(read.res.status, scope).toBe(200);
      expect(JSON.stringify(read.json), scope).not.toContain(json.data.secret);
    }
    const other = await signedInUser(h.db);
    expect((await call('GET', `/webhooks/${json.data.id}`, other.headers)).res.status).toBe(404);
  });

  it('reveal the secret again only to a signed-in person who types the password', async () => {
    const u = await signedInUser(h.db);
    const { json } = await call('POST', '/webhooks', u.headers, { url: hookUrl });
    const reveal = (headers: Headers, password?: string) =>
      call('POST', `/webhooks/${json.data.id}/secret`, headers, password === undefined ? {} : { password });
    // An account signed in with Google has no password to type yet.
    expect((await reveal(u.headers, 'anything')).json.code).toBe(40003);
    await h.db
      .update(users)
      .set({ passwordHash: await hashPassword('the right one 7') })
      .where(eq(users.id, u.user.id));
    expect((await reveal(u.headers)).res.status).toBe(422);
    const wrong = await reveal(u.headers, 'not it at all');
    expect(wrong.json).toMatchObject({
      code: 40102,
      data: { field_keys: { password: 'errors.auth.wrongPassword' } },
    });
    const right = await reveal(u.headers, 'the right one 7');
    expect(right.json).toEqual({ code: 200, message: 'ok', data: { secret: json.data.secret } });
    // Never to a key, read-only or full, even with the password.
    for (const scope of ['read', 'full']) {
      const key = await call('POST', '/api-keys', u.headers, { name: scope, scope });
      const byKey = await reveal({ authorization: `Bearer ${key.json.data.key}` }, 'the right one 7');
      expect(byKey.json.code, scope).toBe(40341);
      expect(JSON.stringify(byKey.json)).not.toContain(json.data.secret);
    }
    // Nor to another account with its own password.
    const other = await signedInUser(h.db);
    await h.db
      .update(users)
      .set({ passwordHash: await hashPassword('other one 8') })
      .where(eq(users.id, other.user.id));
    expect((await reveal(other.headers, 'other one 8')).res.status).toBe(404);
    // Guessing stops after five wrong tries.
    for (let i = 0; i < 5; i++) await reveal(u.headers, `guess ${i}`);
    const limited = await reveal(u.headers, 'the right one 7');
    expect(limited.res.status).toBe(429);
  });

  it('rotate the secret: the new one is shown once, both sign for 24 hours, then only the new one', async () => {
    const u = await signedInUser(h.db);
    const { json } = await call('POST', '/webhooks', u.headers, { url: hookUrl });
    const old = json.data.secret as string;
    const rotated = await call('POST', `/webhooks/${json.data.id}/rotate-secret`, u.headers);
    const fresh = rotated.json.data.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    expect(Date.parse(rotated.json.data.previous_secret_expires_at) - Date.now()).toBeGreaterThan(
      23 * 3600_000,
    );
    const headersOf = (got: Received) => ({
      id: String(got.headers['webhook-id']),
      timestamp: String(got.headers['webhook-timestamp']),
      signature: String(got.headers['webhook-signature']),
    });
    await call('POST', `/webhooks/${json.data.id}/test`, u.headers);
    const during = headersOf(received[0]!);
    expect(during.signature.split(' ')).toHaveLength(2);
    expect(during.signature).toMatch(/^v1,\S+ v1,\S+$/);
    expect(verifyWebhook(fresh, during, received[0]!.body)).toBe(true);
    expect(verifyWebhook(old, during, received[0]!.body)).toBe(true);
    // After the overlap only the new secret signs.
    await h.db
      .update(webhookEndpoints)
      .set({ previousSecretUntil: new Date(Date.now() - 1000) })
      .where(eq(webhookEndpoints.id, json.data.id));
    await call('POST', `/webhooks/${json.data.id}/test`, u.headers);
    const after = headersOf(received[1]!);
    expect(after.signature.split(' ')).toHaveLength(1);
    expect(verifyWebhook(fresh, after, received[1]!.body)).toBe(true);
    expect(verifyWebhook(old, after, received[1]!.body)).toBe(false);
    const read = await call('GET', `/webhooks/${json.data.id}`, u.headers);
    expect(read.json.data.previous_secret_expires_at).toBeNull();
    // A read-only key may not rotate; another account gets 404.
    const key = await call('POST', '/api-keys', u.headers, { name: 'r', scope: 'read' });
    const byKey = await call('POST', `/webhooks/${json.data.id}/rotate-secret`, {
      authorization: `Bearer ${key.json.data.key}`,
    });
    expect(byKey.json.code).toBe(40341);
    const other = await signedInUser(h.db);
    expect((await call('POST', `/webhooks/${json.data.id}/rotate-secret`, other.headers)).res.status).toBe(
      404,
    );
  });

  it('refuse private, loopback, link-local and metadata addresses and other schemes', async () => {
    const u = await signedInUser(h.db);
    for (const url of [
      'http://127.0.0.2/hook',
      'http://10.0.0.5/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
      'http://0.0.0.0:9/hook',
      'http://[::ffff:a00:1]/hook',
      // (127.0.0.1 is allowed here for the test receiver, so the probes aim elsewhere)
      'http://[::10.0.0.1]/hook',
      'http://[::ffff:0:10.0.0.1]/hook',
      'http://[2002:a00:1::1]/hook',
      'http://[64:ff9b:1::a00:1]/hook',
      'http://[64:ff9b::a9fe:a9fe]/hook',
      'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook',
      'http://nothing.invalid/hook',
      'ftp://example.com/x',
      'not a url',
    ]) {
      const { res, json } = await call('POST', '/webhooks', u.headers, { url });
      expect(res.status, url).toBe(422);
      expect(json.code).toBe(42241);
    }
  });

  it('deliver a signed test event that verifies with the Standard Webhooks algorithm', async () => {
    const u = await signedInUser(h.db);
    const { json } = await call('POST', '/webhooks', u.headers, { url: hookUrl });
    const test = await call('POST', `/webhooks/${json.data.id}/test`, u.headers);
    expect(test.json.data).toMatchObject({
      event: 'webhook.test',
      status: 'succeeded',
      response_status: 200,
    });
    expect(received).toHaveLength(1);
    const got = received[0]!;
    const headers = {
      id: String(got.headers['webhook-id']),
      timestamp: String(got.headers['webhook-timestamp']),
      signature: String(got.headers['webhook-signature']),
    };
    expect(headers.id).toBe(test.json.data.id);
    expect(verifyWebhook(json.data.secret, headers, got.body)).toBe(true);
    // Tampered body, other secret, or a stale timestamp: refused.
    expect(verifyWebhook(json.data.secret, headers, got.body.replace('test', 'tset'))).toBe(false);
    expect(verifyWebhook('whsec_' + Buffer.alloc(32).toString('base64'), headers, got.body)).toBe(false);
    expect(verifyWebhook(json.data.secret, headers, got.body, Number(headers.timestamp) + 3600)).toBe(false);
    expect(JSON.parse(got.body)).toMatchObject({ type: 'webhook.test', data: { endpoint_id: json.data.id } });
    const log = await call('GET', `/webhooks/${json.data.id}/deliveries`, u.headers);
    expect(log.json.data.items[0]).toMatchObject({ status: 'succeeded', response_status: 200 });
  });

  it('send transcript.completed and transcript.deleted as durable jobs', async () => {
    const u = await signedInUser(h.db);
    const { json } = await call('POST', '/webhooks', u.headers, {
      url: hookUrl,
      events: ['transcript.deleted'],
    });
    const id = await importSrt(u.headers);
    await call('DELETE', `/transcripts/${id}`, u.headers);
    const got = await until(async () => received.find((r) => r.body.includes('transcript.deleted')));
    expect(JSON.parse(got.body)).toMatchObject({ type: 'transcript.deleted', data: { id } });
    const log = await call('GET', `/webhooks/${json.data.id}/deliveries`, u.headers);
    expect(log.json.data.items).toHaveLength(1);
  });

  it('send transcript.completed once for a transcript imported from captions', async () => {
    const u = await signedInUser(h.db);
    const { json } = await call('POST', '/webhooks', u.headers, {
      url: hookUrl,
      events: ['transcript.completed'],
    });
    const id = await importSrt(u.headers);
    const got = await until(async () => received.find((r) => r.body.includes('transcript.completed')));
    expect(JSON.parse(got.body)).toMatchObject({
      type: 'transcript.completed',
      data: { id, status: 'done', source: 'import' },
    });
    // The event is recorded when the import answers: one delivery for one finished transcript.
    const log = await call('GET', `/webhooks/${json.data.id}/deliveries`, u.headers);
    expect(log.json.data.items).toHaveLength(1);
  });

  it('send transcript.completed when a transcription ends and transcript.failed for a file that is not media', async () => {
    const u = await signedInUser(h.db);
    await call('POST', '/webhooks', u.headers, { url: hookUrl });
    const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
    const media = makeMedia(path.resolve('tmp/test-media'), 'mp4', 1);
    const good = await tusUpload(fetcher, u.headers, readFileSync(media), 'clip.mp4');
    const started = await call('POST', '/transcripts', u.headers, { upload_id: good.id });
    expect(started.json.code, JSON.stringify(started.json)).toBe(200);
    const done = await until(
      async () => received.find((r) => r.body.includes('transcript.completed')),
      120_000,
    );
    expect(JSON.parse(done.body)).toMatchObject({
      type: 'transcript.completed',
      data: { id: started.json.data.id, status: 'done' },
    });
    expect(JSON.parse(done.body).data.segments).toBeUndefined();
    const bad = await tusUpload(fetcher, u.headers, Buffer.from('this is not a video at all'), 'fake.mp4');
    const refused = await call('POST', '/transcripts', u.headers, { upload_id: bad.id });
    const failed = await until(async () => received.find((r) => r.body.includes('transcript.failed')));
    expect(JSON.parse(failed.body)).toMatchObject({
      type: 'transcript.failed',
      data: { id: refused.json.data.id, status: 'failed' },
    });
  }, 150_000);

  it('retry after 500s with back-off, then succeed', async () => {
    const u = await signedInUser(h.db);
    const { json } = await call('POST', '/webhooks', u.headers, {
      url: hookUrl,
      // Only the delete: an imported transcript is completed at once too.
      events: ['transcript.deleted'],
    });
    plan = [500, 503];
    const id = await importSrt(u.headers);
    await call('DELETE', `/transcripts/${id}`, u.headers);
    const [row] = await until(async () => {
      const rows = await h.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, json.data.id));
      return rows[0]?.status === 'succeeded' ? rows : null;
    });
    expect(row!.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
    expect(received).toHaveLength(3);
    // The same message id on every retry, so the receiver can tell a retry from a new event.
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('give up after the last retry, and turn the endpoint off with a mail after repeated failures', async () => {
    const u = await signedInUser(h.db);
    const { json } = await call('POST', '/webhooks', u.headers, {
      url: hookUrl,
      // Only the delete: an imported transcript is completed at once too.
      events: ['transcript.deleted'],
    });
    plan = Array(6).fill(500);
    for (let i = 0; i < 2; i++) {
      const id = await importSrt(u.headers);
      await call('DELETE', `/transcripts/${id}`, u.headers);
      await until(async () => {
        const rows = await h.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpointId, json.data.id));
        return rows.length === i + 1 && rows.every((r) => r.status === 'failed');
      });
    }
    expect(received).toHaveLength(6);
    // The failure is counted (and the endpoint turned off) just after the delivery row is closed.
    const endpoint = await until(async () => {
      const [row] = await h.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, json.data.id));
      return row?.failureCount === 2 && !row.enabled ? row : null;
    });
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: 'failures', failureCount: 2 });
    const mail = await until(async () => mails.find((m) => m.to === u.user.email));
    expect(mail.text).toContain(hookUrl);
    expect(mail.text).toContain('http://app.example/profile');
    // Off: new events are not sent; turning it on again starts the count over.
    const deliveries = () =>
      h.db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, json.data.id));
    const before = (await deliveries()).length;
    const id = await importSrt(u.headers);
    await call('DELETE', `/transcripts/${id}`, u.headers);
    // The delete records its deliveries before it answers: none for an endpoint that is off, so
    // nothing can be sent to it later either.
    expect(await deliveries()).toHaveLength(before);
    expect(received).toHaveLength(6);
    const on = await call('PATCH', `/webhooks/${json.data.id}`, u.headers, { enabled: true });
    expect(on.json.data).toMatchObject({ enabled: true, failure_count: 0, disabled_reason: null });
  });

  it('say what happened to a test event: the status answered, a refused connection, no answer', async () => {
    const u = await signedInUser(h.db);
    const test = async (url: string) => {
      const { json } = await call('POST', '/webhooks', u.headers, { url });
      const sent = await call('POST', `/webhooks/${json.data.id}/test`, u.headers);
      const log = await call('GET', `/webhooks/${json.data.id}/deliveries`, u.headers);
      expect(log.json.data.items[0]).toMatchObject({
        status: sent.json.data.status,
        error: sent.json.data.error,
        response_status: sent.json.data.response_status,
      });
      return sent.json.data as { status: string; error: string | null; response_status: number | null };
    };
    plan = [500];
    expect(await test(hookUrl)).toMatchObject({ status: 'failed', response_status: 500, error: null });
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    expect(await test(`http://127.0.0.1:${closedPort}/hook`)).toMatchObject({
      status: 'failed',
      response_status: null,
      error: 'refused',
    });
    const mute = net.createServer(() => undefined);
    await new Promise<void>((r) => mute.listen(0, '127.0.0.1', r));
    try {
      expect(await test(`http://127.0.0.1:${(mute.address() as AddressInfo).port}/hook`)).toMatchObject({
        status: 'failed',
        response_status: null,
        error: 'timeout',
      });
    } finally {
      mute.close();
    }
  });

  it('are not delivered to a private address the setting does not allow, even via a changed record', async () => {
    const u = await signedInUser(h.db);
    const { json } = await call('POST', '/webhooks', u.headers, { url: hookUrl });
    // As if DNS had changed under an accepted endpoint: the delivery checks the address itself.
    await h.db
      .update(webhookEndpoints)
      .set({ url: 'http://127.0.0.2:9/hook' })
      .where(eq(webhookEndpoints.id, json.data.id));
    const test = await call('POST', `/webhooks/${json.data.id}/test`, u.headers);
    expect(test.json.data).toMatchObject({
      status: 'failed',
      error: 'blocked_address',
      response_status: null,
    });
    expect(received).toHaveLength(0);
  });

  it('can be managed with an API key', async () => {
    const u = await signedInUser(h.db);
    const key = (await call('POST', '/api-keys', u.headers, { name: 'k' })).json.data.key;
    const made = await call('POST', '/webhooks', { authorization: `Bearer ${key}` }, { url: hookUrl });
    expect(made.json.code).toBe(200);
  });
});
