import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../db/schema';
import { hashToken } from '../modules/auth/tokens';
import { testApp } from '../test/harness';
import { makeMedia } from '../test/media';
import { tusUpload } from '../test/tus';
import { signedInUser } from '../test/users';

type Json = { code: number; message: string; message_key?: string; data: any };
type Headers = Record<string, string>;

let h: Awaited<ReturnType<typeof testApp>>;
const MEDIA_DIR = path.resolve('tmp/test-media');

beforeAll(async () => {
  h = await testApp({}, { DATA_DIR: path.resolve('tmp/test-data-api-keys') });
});
afterAll(async () => h?.close());

async function call(method: string, p: string, headers: Headers, body?: unknown) {
  const res = await h.app.request(p, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { res, json: (await res.json()) as Json };
}

async function newKey(session: Headers, body: Record<string, unknown> = { name: 'script' }) {
  const { json } = await call('POST', '/self-api/v1/api-keys', session, body);
  expect(json.code, JSON.stringify(json)).toBe(200);
  return json.data as { id: string; key: string; prefix: string; scope: string };
}

const bearer = (key: string): Headers => ({ authorization: `Bearer ${key}` });

describe('API keys', () => {
  it('are created once, listed by prefix, and stored only as a hash', async () => {
    const u = await signedInUser(h.db);
    const made = await newKey(u.headers, { name: '  Nightly import ' });
    expect(made.key).toMatch(/^csk_[0-9A-Za-z]{40}$/);
    expect(made.prefix).toBe(made.key.slice(0, 12));
    const { json } = await call('GET', '/self-api/v1/api-keys', u.headers);
    expect(json.data.items).toEqual([
      expect.objectContaining({
        id: made.id,
        name: 'Nightly import',
        prefix: made.prefix,
        last_used_at: null,
      }),
    ]);
    expect(JSON.stringify(json.data)).not.toContain(made.key);
    const [row] = await h.db.select().from(apiKeys).where(eq(apiKeys.id, made.id));
    expect(row!.keyHash).toBe(hashToken(made.key));
    expect(JSON.stringify(row)).not.toContain(made.key.slice(12));
  });

  it('count only from Authorization: Bearer, never from the session cookie', async () => {
    const u = await signedInUser(h.db);
    const { key } = await newKey(u.headers);
    expect((await call('GET', '/self-api/v1/transcripts', bearer(key))).res.status).toBe(200);
    // A key planted as the `token` cookie (a sibling subdomain can set one) is no credential.
    const planted = await call('GET', '/self-api/v1/transcripts', { cookie: `token=${key}` });
    expect(planted.res.status).toBe(401);
    const upload = await h.app.request('/self-api/v1/uploads', {
      method: 'POST',
      headers: {
        cookie: `token=${key}`,
        origin: 'http://localhost',
        'tus-resumable': '1.0.0',
        'upload-length': '10',
        'upload-metadata': `filename ${Buffer.from('a.mp4').toString('base64')}`,
      },
    });
    expect(upload.status).toBe(401);
    // The session cookie itself still signs a person in.
    expect((await call('GET', '/self-api/v1/transcripts', u.headers)).res.status).toBe(200);
  });

  it('refuse a bad name', async () => {
    const u = await signedInUser(h.db);
    const { res, json } = await call('POST', '/self-api/v1/api-keys', u.headers, { name: '' });
    expect(res.status).toBe(422);
    expect(json.data.fields.name).toBeTruthy();
  });

  it('call the product API as their owner, and note when they were used', async () => {
    const u = await signedInUser(h.db);
    const other = await signedInUser(h.db);
    const { key, id } = await newKey(u.headers);
    const list = await call('GET', '/self-api/v1/transcripts', bearer(key));
    expect(list.res.status).toBe(200);
    expect(list.res.headers.get('x-ratelimit-limit')).toBe('60');
    const folder = await call('POST', '/self-api/v1/folders', bearer(key), { name: 'From the API' });
    expect(folder.json.code).toBe(200);
    // The folder is the key owner's, not anybody else's.
    const mine = await call('GET', '/self-api/v1/folders', u.headers);
    expect(mine.json.data.items ?? mine.json.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'From the API' })]),
    );
    const theirs = await call('GET', `/self-api/v1/folders`, other.headers);
    expect(JSON.stringify(theirs.json.data)).not.toContain('From the API');
    const [row] = await h.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(row!.lastUsedAt).toBeInstanceOf(Date);
  });

  it('upload through tus', async () => {
    const u = await signedInUser(h.db);
    const { key } = await newKey(u.headers);
    const file = makeMedia(MEDIA_DIR, 'mp4', 1);
    const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
    const up = await tusUpload(fetcher, bearer(key), readFileSync(file), 'clip.mp4');
    expect(up.response.status).toBe(204);
  });

  it('may not touch the account, billing or keys', async () => {
    const u = await signedInUser(h.db);
    const { key } = await newKey(u.headers);
    for (const [method, p] of [
      ['GET', '/common-api/v1/user'],
      ['PUT', '/common-api/v1/user'],
      ['GET', '/common-api/v1/distribution/show'],
      ['GET', '/self-api/v1/billing/status'],
      ['POST', '/self-api/v1/billing/checkout'],
      ['GET', '/self-api/v1/api-keys'],
      ['POST', '/self-api/v1/api-keys'],
    ] as const) {
      const { res, json } = await call(method, p, bearer(key), method === 'GET' ? undefined : { name: 'x' });
      expect(res.status, `${method} ${p}`).toBe(403);
      expect(json.code).toBe(40341);
    }
  });

  it('with read scope only read', async () => {
    const u = await signedInUser(h.db);
    const { key } = await newKey(u.headers, { name: 'reader', scope: 'read' });
    expect((await call('GET', '/self-api/v1/transcripts', bearer(key))).res.status).toBe(200);
    const write = await call('POST', '/self-api/v1/folders', bearer(key), { name: 'nope' });
    expect(write.res.status).toBe(403);
    expect(write.json.code).toBe(40341);
  });

  it('stop working once revoked, and only the owner revokes', async () => {
    const u = await signedInUser(h.db);
    const other = await signedInUser(h.db);
    const { key, id } = await newKey(u.headers);
    const stranger = await call('DELETE', `/self-api/v1/api-keys/${id}`, other.headers);
    expect(stranger.res.status).toBe(404);
    expect((await call('GET', '/self-api/v1/transcripts', bearer(key))).res.status).toBe(200);
    const revoked = await call('DELETE', `/self-api/v1/api-keys/${id}`, u.headers);
    expect(revoked.json.code).toBe(200);
    const after = await call('GET', '/self-api/v1/transcripts', bearer(key));
    expect(after.res.status).toBe(401);
    // A made-up key of the right shape is just as unknown.
    const fake = `csk_${'A'.repeat(40)}`;
    expect((await call('GET', '/self-api/v1/transcripts', bearer(fake))).res.status).toBe(401);
  });

  it('are limited by the plan per key and per account, across all its keys', async () => {
    const u = await signedInUser(h.db, {
      rankName: 'Enterprise',
      customLimits: { api_requests_per_minute: 3 },
    });
    const a = await newKey(u.headers, { name: 'a' });
    const b = await newKey(u.headers, { name: 'b' });
    for (let i = 0; i < 3; i++) {
      expect((await call('GET', '/self-api/v1/transcripts', bearer(a.key))).res.status).toBe(200);
    }
    const limited = await call('GET', '/self-api/v1/transcripts', bearer(a.key));
    expect(limited.res.status).toBe(429);
    expect(limited.json.code).toBe(42941);
    expect(Number(limited.res.headers.get('retry-after'))).toBeGreaterThan(0);
    // A second key of the same account does not add calls: the account's minute is spent too.
    const other = await call('GET', '/self-api/v1/transcripts', bearer(b.key));
    expect(other.res.status).toBe(429);
    // tus says when to come back, like every other answer.
    const upload = await h.app.request('/self-api/v1/uploads', {
      method: 'POST',
      headers: {
        ...bearer(b.key),
        'tus-resumable': '1.0.0',
        'upload-length': '10',
        'upload-metadata': `filename ${Buffer.from('a.mp4').toString('base64')}`,
      },
    });
    expect(upload.status).toBe(429);
    expect(Number(upload.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await upload.json()) as Json).code).toBe(42941);
    // Another account's key is counted on its own.
    const v = await signedInUser(h.db, {
      rankName: 'Enterprise',
      customLimits: { api_requests_per_minute: 3 },
    });
    const c = await newKey(v.headers, { name: 'c' });
    expect((await call('GET', '/self-api/v1/transcripts', bearer(c.key))).res.status).toBe(200);
    // The person's own session is not limited by the key.
    expect((await call('GET', '/self-api/v1/transcripts', u.headers)).res.status).toBe(200);
  });

  it('are capped per account', async () => {
    const u = await signedInUser(h.db);
    for (let i = 0; i < 20; i++) await newKey(u.headers, { name: `k${i}` });
    const { res, json } = await call('POST', '/self-api/v1/api-keys', u.headers, { name: 'one too many' });
    expect(res.status).toBe(403);
    expect(json.code).toBe(40342);
  });
});
