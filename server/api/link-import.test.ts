import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkCode } from '../../common/error-codes';
import { transcripts } from '../db/schema';
import { startLinkServer } from '../test/link-server';
import { newFolder } from '../test/factories';
import { makeMedia } from '../test/media';
import { testApp } from '../test/harness';
import { testModelPath } from '../test/test-model';
import { signedInUser } from '../test/users';
import { waitFor } from '../test/wait';

type Json = { code: number; message: string; message_key?: string; data: any };
type Headers = Record<string, string>;
let h: Awaited<ReturnType<typeof testApp>>;
let site: Awaited<ReturnType<typeof startLinkServer>>;
let clip: Buffer;

beforeAll(async () => {
  clip = readFileSync(makeMedia(path.resolve('tmp/test-media'), 'mp3', 3));
  site = await startLinkServer(clip);
  const model = await testModelPath();
  h = await testApp(
    {},
    {
      DATA_DIR: path.resolve('tmp/test-data-link-import'),
      WHISPER_MODEL: model,
      WHISPER_THREADS: '1',
      // Only the test server's address: every other private one stays refused.
      ALLOW_PRIVATE_URLS: '127.0.0.1',
      // No yt-dlp here (yt-dlp.test.ts has one): a page link is "not media".
      YT_DLP_PATH: '/nonexistent/yt-dlp',
    },
    { worker: true },
  );
}, 60_000);
afterAll(async () => {
  await h?.close();
  await site?.close();
});

async function call(method: string, p: string, headers: Headers, body?: unknown) {
  const res = await h.app.request(`/self-api/v1${p}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { res, json: (await res.json()) as Json };
}

/** The transcript once its status is one of `statuses`. */
async function settle(headers: Headers, id: string, statuses: string[], ms = 30_000) {
  let last: unknown;
  return waitFor(
    async () => {
      const { json } = await call('GET', `/transcripts/${id}`, headers);
      last = json.data?.status;
      return statuses.includes(json.data?.status) ? json.data : undefined;
    },
    { ms, everyMs: 100, what: () => `${statuses.join('/')}, still ${String(last)}` },
  );
}

/** Imports `p` of the test site and waits for it to fail; the failure's code. */
async function failureOf(headers: Headers, p: string) {
  const { json } = await call('POST', '/transcripts/from-link', headers, { url: `${site.base}${p}` });
  expect(json.code, JSON.stringify(json)).toBe(200);
  const failed = await settle(headers, json.data.id, ['failed', 'done']);
  expect(failed.status).toBe('failed');
  expect(failed.media).toBeNull();
  return failed.error as { code: string; message: string };
}

describe('import from a link', () => {
  it('downloads with progress, then transcribes like an upload', async () => {
    const u = await signedInUser(h.db);
    const { res, json } = await call('POST', '/transcripts/from-link', u.headers, {
      url: `${site.base}/talk.mp3`,
      detect_speech: false,
    });
    expect(res.status).toBe(202);
    expect(json.data).toMatchObject({
      name: 'talk',
      source: 'link',
      source_url: `${site.base}/talk.mp3`,
      status: 'queued',
      stage: 'downloading',
      media: null,
    });
    const id = json.data.id as string;
    const seen: { status: string; stage?: string | null; progress: number }[] = [];
    const off = h.deps.services.transcription.events.subscribe(id, (e) => {
      if (e.type === 'status') seen.push(e);
    });
    const done = await settle(u.headers, id, ['done', 'failed'], 90_000);
    off();
    expect(done.status, JSON.stringify(done.error)).toBe('done');
    expect(done.media).toMatchObject({ name: 'talk.mp3', type: 'audio/mpeg', size: clip.length });
    expect(done.duration).toBeCloseTo(3, 0);
    // The download is a stage of its own, its percent from Content-Length, rising, before the rest.
    const downloading = seen.filter((e) => e.stage === 'downloading' && e.status === 'processing');
    const percents = downloading.map((e) => e.progress);
    expect(percents.some((p) => p > 0 && p < 100)).toBe(true);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    const firstOther = seen.findIndex((e) => e.stage !== 'downloading' && e.status === 'processing');
    expect(firstOther).toBeGreaterThan(seen.lastIndexOf(downloading.at(-1)!));
    const media = await h.app.request(`/self-api/v1/transcripts/${id}/media`, { headers: u.headers });
    expect(Buffer.from(await media.arrayBuffer()).equals(clip)).toBe(true);
  }, 120_000);

  it('names the transcript after Content-Disposition, and follows a redirect on the same host', async () => {
    const u = await signedInUser(h.db, { rankName: 'Enterprise' });
    const named = await call('POST', '/transcripts/from-link', u.headers, { url: `${site.base}/named` });
    const moved = await call('POST', '/transcripts/from-link', u.headers, {
      url: `${site.base}/to-talk`,
      name: 'My own name',
    });
    const a = await settle(u.headers, named.json.data.id, ['processing', 'done', 'failed'], 30_000);
    const rowA = await waitFor(async () => {
      const [row] = await h.db.select().from(transcripts).where(eq(transcripts.id, a.id));
      return row?.mediaKey ? row : undefined;
    });
    expect(rowA).toMatchObject({ name: 'Board meeting été', mediaName: 'Board meeting été.mp3' });
    const b = await waitFor(async () => {
      const [row] = await h.db.select().from(transcripts).where(eq(transcripts.id, moved.json.data.id));
      return row?.mediaKey ? row : undefined;
    });
    expect(b).toMatchObject({ name: 'My own name', mediaName: 'talk.mp3' });
  }, 60_000);

  it('stops as soon as the bytes pass the plan limit, with or without Content-Length', async () => {
    const u = await signedInUser(h.db, { rankName: 'Enterprise', customLimits: { max_file_mb: 1 } });
    const endless = await failureOf(u.headers, '/endless');
    expect(endless).toEqual({ code: 'link_too_large', message: 'errors.media.link_too_large' });
    // The stream was cut near the limit, not read to its end (64 MB).
    expect(site.state.endlessSent).toBeLessThan(16 * 1024 * 1024);
    const declared = await failureOf(u.headers, '/huge');
    expect(declared.code).toBe('link_too_large');
  }, 60_000);

  it('refuses what is not media, with the reason on the failed transcript', async () => {
    const u = await signedInUser(h.db, { rankName: 'Enterprise' });
    expect((await failureOf(u.headers, '/page.html')).code).toBe('link_not_media');
    expect((await failureOf(u.headers, '/doc.json')).code).toBe('link_not_media');
    expect((await failureOf(u.headers, '/nothing-here')).code).toBe('link_http_error');
    // Served as audio but not audio: ffprobe has the last word, as for uploads.
    expect(await failureOf(u.headers, '/fake.mp3')).toEqual({
      code: 'not_media',
      message: 'errors.media.not_media',
    });
  }, 60_000);

  it('refuses a redirect to a private address or another scheme', async () => {
    const u = await signedInUser(h.db, { rankName: 'Enterprise' });
    const before = site.state.hits.get('/talk.mp3') ?? 0;
    expect((await failureOf(u.headers, '/to-private')).code).toBe('link_blocked');
    expect((await failureOf(u.headers, '/to-ftp')).code).toBe('link_blocked');
    // The refused address was never connected to.
    expect(site.state.hits.get('/talk.mp3') ?? 0).toBe(before);
  }, 60_000);

  it('tries a server error again before it fails', async () => {
    const u = await signedInUser(h.db, { rankName: 'Enterprise' });
    const { json } = await call('POST', '/transcripts/from-link', u.headers, { url: `${site.base}/busy` });
    // A 503 is worth another try: the job goes back to the queue (with back-off) first.
    await waitFor(async () => (site.state.hits.get('/busy') ?? 0) >= 1);
    const [row] = await waitFor(async () => {
      const rows = await h.db.select().from(transcripts).where(eq(transcripts.id, json.data.id));
      return rows[0]?.status === 'queued' && (site.state.hits.get('/busy') ?? 0) >= 1 ? rows : undefined;
    });
    expect(row).toMatchObject({ status: 'queued', stage: 'downloading', errorCode: null });
  });

  it('answers bad links at once with a translated 422, and creates nothing', async () => {
    const u = await signedInUser(h.db);
    for (const url of ['ftp://example.com/a.mp3', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
      const { res, json } = await call('POST', '/transcripts/from-link', u.headers, { url });
      expect(res.status, url).toBe(422);
      expect(json.data.field_keys.url).toBe('validation.url');
    }
    for (const url of [
      'http://10.0.0.1/a.mp3',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/a.mp3',
      // (this server allows 127.0.0.1 for its test site, so the probes aim elsewhere)
      'http://[::169.254.169.254]/a.mp3',
      'http://[2002:a00:1::1]/a.mp3',
      // A name that does not resolve gets the private address's answer: no oracle for names.
      'http://nothing.invalid/a.mp3',
    ]) {
      const { res, json } = await call('POST', '/transcripts/from-link', u.headers, { url });
      expect(res.status, url).toBe(422);
      expect(json, url).toMatchObject({
        code: LinkCode.BLOCKED,
        message_key: 'errors.links.blocked',
        data: null,
      });
    }
    const creds = await call('POST', '/transcripts/from-link', u.headers, {
      url: `http://a:b@${site.base.slice(7)}/x`,
    });
    expect(creds.res.status).toBe(422);
    const list = await call('GET', '/transcripts', u.headers);
    expect(list.json.data.total).toBe(0);
  });

  it('checks the folder is yours, and works with an API key but not without a user', async () => {
    const owner = await signedInUser(h.db, { rankName: 'Enterprise' });
    const other = await signedInUser(h.db, { rankName: 'Enterprise' });
    const folder = await newFolder(h.db, owner.user.id);
    const theirs = await call('POST', '/transcripts/from-link', other.headers, {
      url: `${site.base}/talk.mp3`,
      folder_id: folder.id,
    });
    expect(theirs.res.status).toBe(404);

    const key = await call('POST', '/api-keys', owner.headers, { name: 'script' });
    expect(key.json.code, JSON.stringify(key.json)).toBe(200);
    const bearer = { authorization: `Bearer ${key.json.data.key}` };
    const viaKey = await call('POST', '/transcripts/from-link', bearer, {
      url: `${site.base}/talk.mp3`,
      folder_id: folder.id,
      language: 'en',
    });
    expect(viaKey.res.status).toBe(202);
    expect(viaKey.json.data).toMatchObject({ folder_id: folder.id, language: 'en', source: 'link' });
    const anonymous = await call(
      'POST',
      '/transcripts/from-link',
      { origin: 'http://localhost' },
      { url: `${site.base}/talk.mp3` },
    );
    expect(anonymous.res.status).toBe(401);
    // The other user cannot see it.
    const peek = await call('GET', `/transcripts/${viaKey.json.data.id}`, other.headers);
    expect(peek.res.status).toBe(404);
  });

  it('counts against the jobs a plan runs at once', async () => {
    const u = await signedInUser(h.db);
    const first = await call('POST', '/transcripts/from-link', u.headers, { url: `${site.base}/endless` });
    expect(first.res.status).toBe(202);
    const second = await call('POST', '/transcripts/from-link', u.headers, { url: `${site.base}/talk.mp3` });
    expect(second.res.status).toBe(429);
    await call('POST', `/transcripts/${first.json.data.id}/cancel`, u.headers);
  });

  it('can be canceled while it downloads, and retried', async () => {
    const u = await signedInUser(h.db, { rankName: 'Enterprise', customLimits: { max_file_mb: 4096 } });
    const { json } = await call('POST', '/transcripts/from-link', u.headers, { url: `${site.base}/endless` });
    await settle(u.headers, json.data.id, ['processing']);
    const canceled = await call('POST', `/transcripts/${json.data.id}/cancel`, u.headers);
    expect(canceled.json.data.status).toBe('canceled');
    const retried = await call('POST', `/transcripts/${json.data.id}/retry`, u.headers);
    expect(retried.json.data).toMatchObject({ status: 'queued', stage: 'downloading' });
    await settle(u.headers, json.data.id, ['processing']);
    await call('DELETE', `/transcripts/${json.data.id}`, u.headers);
  }, 30_000);
});
