import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerContext } from '../../common/app-context';
import { insights, shareLinks, transcripts } from '../db/schema';
import { testApp, type ApiJson } from '../test/harness';
import { newShare, newTranscript } from '../test/factories';
import { makeMedia } from '../test/media';
import { tusUpload } from '../test/tus';
import { signedInUser } from '../test/users';

type Json = ApiJson;
type Headers = Record<string, string>;

let h: Awaited<ReturnType<typeof testApp>>;
// An injected clock: expiry is decided by the server's "now", which tests move forward.
let clock = new Date();
const seen: ServerContext[] = [];
const MEDIA_DIR = path.resolve('tmp/test-media');
const DATA_DIR = path.resolve('tmp/test-data-shares');
const SRT =
  '1\n00:00:01,000 --> 00:00:02,500\nHello there\n\n2\n00:01:05,000 --> 00:01:07,000\nGeneral Kenobi\n';
const NOT_FOUND = { code: 40408, message_key: 'errors.shares.notFound', data: null };
// Shaped like a real id, but never issued.
const UNKNOWN_SHARE = 'AAAAAAAAAAAAAAAAAAAAAA';

beforeAll(async () => {
  h = await testApp(
    {
      ssr: async (_request, context) => {
        seen.push(context);
        return new Response('page', { headers: { 'content-type': 'text/html' } });
      },
    },
    { DATA_DIR },
    { now: () => clock },
  );
});
afterAll(async () => h?.close());

const api = (method: string, p: string, headers: Headers, body?: unknown) => h.api(method, p, headers, body);

/** Anonymous: no cookie at all. */
const pub = (p: string, headers: Headers = {}) => h.app.request(`/self-api/v1${p}`, { headers });

async function importSrt(headers: Headers, opts: { media?: boolean } = {}) {
  const form = new FormData();
  form.set('file', new File([SRT], 'meeting.srt', { type: 'application/x-subrip' }));
  if (opts.media) {
    const file = makeMedia(MEDIA_DIR, 'mp4', 2);
    const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
    const { id, response } = await tusUpload(fetcher, headers, readFileSync(file), path.basename(file));
    expect(response.status).toBe(204);
    form.set('upload_id', id!);
  }
  const res = await h.app.request('/self-api/v1/transcripts/import', { method: 'POST', headers, body: form });
  const json = (await res.json()) as Json;
  expect(json.code, JSON.stringify(json)).toBe(200);
  return json.data.id as string;
}

async function share(headers: Headers, id: string, body: Record<string, unknown> = {}) {
  return api('POST', `/transcripts/${id}/shares`, headers, {
    allow_media: false,
    allow_download: false,
    ...body,
  });
}

async function expectNotFound(res: Response) {
  expect(res.status).toBe(404);
  expect(await res.json()).toMatchObject(NOT_FOUND);
}

describe('owner calls', () => {
  it('creates, lists and revokes links with 128-bit base64url ids', async () => {
    const u = await signedInUser(h.db, { rankName: 'UNLIMITED' });
    const id = await importSrt(u.headers);
    const created = await share(u.headers, id, { allow_download: true });
    expect(created.json.code).toBe(200);
    const link = created.json.data;
    expect(link).toMatchObject({
      url: `/transcript/share/${id}/${link.id}`,
      expires_at: null,
      allow_media: false, // nothing to play: an import without media
      allow_download: true,
      revoked_at: null,
      views: 0,
    });
    expect(link.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(link.id, 'base64url')).toHaveLength(16);

    const ids = new Set<string>([link.id]);
    for (let i = 0; i < 20; i++) ids.add((await share(u.headers, id)).json.data.id);
    expect(ids.size).toBe(21);

    const list = await api('GET', `/transcripts/${id}/shares`, u.headers);
    expect(list.json.data.items).toHaveLength(21);
    expect(list.json.data.items.map((s: any) => s.id)).toContain(link.id);

    const revoked = await api('DELETE', `/transcripts/${id}/shares/${link.id}`, u.headers);
    expect(revoked.json.data.revoked_at).toEqual(expect.any(String));
    // Revoking again is harmless and keeps the first time.
    const again = await api('DELETE', `/transcripts/${id}/shares/${link.id}`, u.headers);
    expect(again.json.data.revoked_at).toBe(revoked.json.data.revoked_at);
    const after = await api('GET', `/transcripts/${id}/shares`, u.headers);
    expect(after.json.data.items.find((s: any) => s.id === link.id).revoked_at).not.toBeNull();
    await expectNotFound(await pub(`/shares/${id}/${link.id}`));
    const missing = await api('DELETE', `/transcripts/${id}/shares/${UNKNOWN_SHARE}`, u.headers);
    expect(missing.res.status).toBe(404);
  });

  it('validates the expiry: in the future, at most a year ahead', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers);
    const day = 24 * 60 * 60 * 1000;
    const past = await share(u.headers, id, { expires_at: new Date(clock.getTime() - 1000).toISOString() });
    expect(past.res.status).toBe(422);
    expect(past.json.data.field_keys.expires_at).toBe('errors.shares.badExpiry');
    const far = await share(u.headers, id, {
      expires_at: new Date(clock.getTime() + 367 * day).toISOString(),
    });
    expect(far.res.status).toBe(422);
    const junk = await share(u.headers, id, { expires_at: 'next week' });
    expect(junk.res.status).toBe(422);
    const extra = await share(u.headers, id, { allow_all: true });
    expect(extra.res.status).toBe(422);
    const week = new Date(clock.getTime() + 7 * day).toISOString();
    const ok = await share(u.headers, id, { expires_at: week });
    expect(ok.json.data.expires_at).toBe(week);
  });

  it("hides other users' transcripts and links behind 404, and needs a login", async () => {
    const owner = await signedInUser(h.db);
    const other = await signedInUser(h.db);
    const id = await importSrt(owner.headers);
    const link = (await share(owner.headers, id)).json.data;
    for (const [method, p] of [
      ['POST', `/transcripts/${id}/shares`],
      ['GET', `/transcripts/${id}/shares`],
      ['DELETE', `/transcripts/${id}/shares/${link.id}`],
    ] as const) {
      const body = method === 'POST' ? { allow_media: false, allow_download: false } : undefined;
      const res = await api(method, p, other.headers, body);
      expect(res.res.status, `${method} ${p}`).toBe(404);
      const anon = await api(method, p, { origin: 'http://localhost' }, body);
      expect(anon.res.status, `anonymous ${method} ${p}`).toBe(401);
    }
    // The link still works: the other user could not revoke it.
    expect((await pub(`/shares/${id}/${link.id}`)).status).toBe(200);
  });

  it('limits active links per rank (40305), not counting revoked or expired ones', async () => {
    const u = await signedInUser(h.db); // Free: 3 active links
    const id = await importSrt(u.headers);
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await share(u.headers, id)).json.data);
    const refused = await share(u.headers, id);
    expect(refused.res.status).toBe(403);
    expect(refused.json).toMatchObject({
      code: 40305,
      message_key: 'errors.shares.limitReached',
      data: { limit: 3 },
    });
    await api('DELETE', `/transcripts/${id}/shares/${made[0].id}`, u.headers);
    expect((await share(u.headers, id)).json.code).toBe(200);
    await h.db
      .update(shareLinks)
      .set({ expiresAt: new Date(clock.getTime() - 1000) })
      .where(eq(shareLinks.id, made[1].id));
    expect((await share(u.headers, id)).json.code).toBe(200);
    expect((await share(u.headers, id)).res.status).toBe(403);
    // The limit is across all of the user's transcripts.
    const second = await importSrt(u.headers);
    expect((await share(u.headers, second)).res.status).toBe(403);
  });

  it('shares finished transcripts only (409)', async () => {
    const u = await signedInUser(h.db);
    const row = await newTranscript(h.db, u.user.id, { name: 'running', status: 'processing' });
    const res = await share(u.headers, row!.id);
    expect(res.res.status).toBe(409);
    expect(res.json).toMatchObject({ code: 40908, message_key: 'errors.shares.notReady' });
  });
});

describe('public calls', () => {
  it('shows a shared transcript to anyone, counts views, never caches', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers);
    const link = (await share(u.headers, id)).json.data;
    const res = await pub(`/shares/${id}/${link.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    const json = (await res.json()) as Json;
    expect(json.data).toEqual({
      id,
      share_id: link.id,
      name: 'meeting',
      duration: 67,
      language: null,
      segments: [
        { start: 1, end: 2.5, text: 'Hello there' },
        { start: 65, end: 67, text: 'General Kenobi' },
      ],
      speakers: [],
      has_video: false,
      media_url: null,
      allow_download: false,
      export_url: null,
      export_formats: [],
      // No translations yet.
      tracks: [],
      summary: null,
      chapters: null,
    });
    // Nothing about the owner leaks.
    expect(JSON.stringify(json)).not.toContain(u.user.id);
    await pub(`/shares/${id}/${link.id}`);
    const list = await api('GET', `/transcripts/${id}/shares`, u.headers);
    expect(list.json.data.items[0].views).toBe(2);
  });

  it('serves the media with ranges only when the link includes it', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers, { media: true });
    const withMedia = (await share(u.headers, id, { allow_media: true })).json.data;
    const without = (await share(u.headers, id, { allow_media: false })).json.data;
    expect(withMedia.allow_media).toBe(true);

    const view = ((await (await pub(`/shares/${id}/${withMedia.id}`)).json()) as Json).data;
    expect(view.has_video).toBe(true);
    expect(view.media_url).toBe(`/self-api/v1/shares/${id}/${withMedia.id}/media`);
    const full = await pub(`/shares/${id}/${withMedia.id}/media`);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('video/mp4');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    const size = Number(full.headers.get('content-length'));
    expect((await full.arrayBuffer()).byteLength).toBe(size);
    const part = await pub(`/shares/${id}/${withMedia.id}/media`, { range: 'bytes=10-109' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-109/${size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
    const past = await pub(`/shares/${id}/${withMedia.id}/media`, { range: `bytes=${size + 1}-` });
    expect(past.status).toBe(416);
    // Media requests are not page views: only the one JSON view above counts.
    const list = await api('GET', `/transcripts/${id}/shares`, u.headers);
    expect(list.json.data.items.find((s: any) => s.id === withMedia.id).views).toBe(1);

    const hidden = ((await (await pub(`/shares/${id}/${without.id}`)).json()) as Json).data;
    expect(hidden).toMatchObject({ media_url: null, has_video: false });
    await expectNotFound(await pub(`/shares/${id}/${without.id}/media`));

    await api('DELETE', `/transcripts/${id}/shares/${withMedia.id}`, u.headers);
    await expectNotFound(await pub(`/shares/${id}/${withMedia.id}/media`, { range: 'bytes=0-9' }));
  });

  it('shows the summary and chapters only on links that include them', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers);
    const [t] = await h.db.select().from(transcripts).where(eq(transcripts.id, id));
    const summary = {
      bottomLine: { text: 'A greeting.', cites: [{ segment: 0, start: 1 }] },
      keyPoints: [],
      decisions: [],
      actionItems: [],
      openQuestions: [],
    };
    const chapters = [{ segment: 0, start: 1, title: 'Hello', summary: 'They greet.' }];
    for (const [kind, content] of [
      ['summary', { summary }],
      ['chapters', { chapters }],
    ] as const)
      await h.db.insert(insights).values({
        workspaceId: t!.workspaceId,
        userId: u.user.id,
        transcriptId: id,
        kind,
        language: 'en',
        status: 'done',
        content,
        sourceHash: 'x',
      });
    const without = (await share(u.headers, id)).json.data;
    const withIt = (await share(u.headers, id, { include_insights: true })).json.data;
    expect(without.include_insights).toBe(false);
    expect(withIt.include_insights).toBe(true);
    const closed = ((await (await pub(`/shares/${id}/${without.id}`)).json()) as Json).data;
    expect(closed).toMatchObject({ summary: null, chapters: null });
    expect(JSON.stringify(closed)).not.toContain('A greeting.');
    const open = ((await (await pub(`/shares/${id}/${withIt.id}`)).json()) as Json).data;
    expect(open).toMatchObject({ summary, chapters });

    // The option changes on a link people already have: its address stays, its page follows.
    const edited = await api('PATCH', `/transcripts/${id}/shares/${without.id}`, u.headers, {
      include_insights: true,
    });
    expect(edited.json.data).toMatchObject({ id: without.id, url: without.url, include_insights: true });
    const nowOpen = ((await (await pub(`/shares/${id}/${without.id}`)).json()) as Json).data;
    expect(nowOpen).toMatchObject({ summary, chapters });
    await api('PATCH', `/transcripts/${id}/shares/${withIt.id}`, u.headers, { include_insights: false });
    const nowClosed = ((await (await pub(`/shares/${id}/${withIt.id}`)).json()) as Json).data;
    expect(nowClosed).toMatchObject({ summary: null, chapters: null });
    const listed = await api('GET', `/transcripts/${id}/shares`, u.headers);
    expect(
      Object.fromEntries(
        listed.json.data.items.map((s: { id: string; include_insights: boolean }) => [
          s.id,
          s.include_insights,
        ]),
      ),
    ).toEqual({ [without.id]: true, [withIt.id]: false });

    // Bad input is a translated 422; a revoked link, another's link or an unknown one a 404.
    const bad = await api('PATCH', `/transcripts/${id}/shares/${without.id}`, u.headers, {
      include_insights: 'yes',
    });
    expect(bad.res.status).toBe(422);
    expect(bad.json.message_key).toEqual(expect.any(String));
    const extra = await api('PATCH', `/transcripts/${id}/shares/${without.id}`, u.headers, {
      include_insights: true,
      expires_at: null,
    });
    expect(extra.res.status).toBe(422);
    const stranger = await signedInUser(h.db);
    const theirs = await api('PATCH', `/transcripts/${id}/shares/${without.id}`, stranger.headers, {
      include_insights: false,
    });
    expect(theirs.res.status).toBe(404);
    await api('DELETE', `/transcripts/${id}/shares/${withIt.id}`, u.headers);
    const revoked = await api('PATCH', `/transcripts/${id}/shares/${withIt.id}`, u.headers, {
      include_insights: true,
    });
    expect(revoked.res.status).toBe(404);
    expect(revoked.json).toMatchObject({ code: NOT_FOUND.code, message_key: 'errors.shares.notFound' });
    const unknown = await api('PATCH', `/transcripts/${id}/shares/${UNKNOWN_SHARE}`, u.headers, {
      include_insights: true,
    });
    expect(unknown.res.status).toBe(404);
    // Still open for the one left unchanged by the stranger.
    const still = ((await (await pub(`/shares/${id}/${without.id}`)).json()) as Json).data;
    expect(still).toMatchObject({ summary, chapters });
  });

  it("exports only when the link allows downloads, in the owner's plan formats", async () => {
    const u = await signedInUser(h.db); // Free: txt and srt
    const id = await importSrt(u.headers);
    const open = (await share(u.headers, id, { allow_download: true })).json.data;
    const closed = (await share(u.headers, id)).json.data;
    const view = ((await (await pub(`/shares/${id}/${open.id}`)).json()) as Json).data;
    expect(view).toMatchObject({
      allow_download: true,
      export_url: `/self-api/v1/shares/${id}/${open.id}/export`,
      export_formats: ['txt', 'srt'],
    });

    const srt = await pub(`/shares/${id}/${open.id}/export?format=srt`);
    expect(srt.status).toBe(200);
    expect(srt.headers.get('content-disposition')).toContain('meeting.srt');
    expect(await srt.text()).toContain('00:01:05,000 --> 00:01:07,000');
    const txt = await pub(`/shares/${id}/${open.id}/export?format=txt&timestamps=1`);
    expect(await txt.text()).toContain('1:05 - 1:07\nGeneral Kenobi');
    const plain = await pub(`/shares/${id}/${open.id}/export?format=txt`);
    expect(await plain.text()).toBe('Hello there\n\nGeneral Kenobi\n');

    const docx = await pub(`/shares/${id}/${open.id}/export?format=docx`);
    expect(docx.status).toBe(403);
    expect(await docx.json()).toMatchObject({ code: 40304, message_key: 'errors.exports.formatNotInPlan' });
    const bad = await pub(`/shares/${id}/${open.id}/export?format=exe`);
    expect(bad.status).toBe(422);
    await expectNotFound(await pub(`/shares/${id}/${closed.id}/export?format=txt`));
  });

  it('answers one identical 404 for every bad link', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers);
    const otherId = await importSrt(u.headers);
    const revoked = (await share(u.headers, id)).json.data;
    await api('DELETE', `/transcripts/${id}/shares/${revoked.id}`, u.headers);
    const expired = await newShare(
      h.db,
      { id, userId: u.user.id },
      { id: 'expiredexpiredexpired0', expiresAt: new Date(clock.getTime() - 60_000) },
    );
    const ofOther = (await share(u.headers, otherId)).json.data;
    for (const p of [
      `/shares/${id}/${revoked.id}`,
      `/shares/${id}/${expired!.id}`,
      `/shares/${id}/${UNKNOWN_SHARE}`,
      `/shares/${id}/${ofOther.id}`, // a real link, but of another transcript
      `/shares/${crypto.randomUUID()}/${ofOther.id}`,
      `/shares/${id}/short`,
      `/shares/not-a-uuid/${ofOther.id}`,
      `/shares/${id}/${ofOther.id}/media`,
      `/shares/${id}/${revoked.id}/export?format=txt`,
    ]) {
      await expectNotFound(await pub(p));
    }
    expect((await pub(`/shares/${otherId}/${ofOther.id}`)).status).toBe(200);
  });

  it('stops a link when its time is up (injected clock)', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers);
    const hour = 60 * 60 * 1000;
    const link = (await share(u.headers, id, { expires_at: new Date(clock.getTime() + hour).toISOString() }))
      .json.data;
    expect((await pub(`/shares/${id}/${link.id}`)).status).toBe(200);
    const saved = clock;
    try {
      clock = new Date(saved.getTime() + 2 * hour);
      await expectNotFound(await pub(`/shares/${id}/${link.id}`));
    } finally {
      clock = saved;
    }
  });

  it('ends with the transcript', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers);
    const link = (await share(u.headers, id)).json.data;
    await api('DELETE', `/transcripts/${id}`, u.headers);
    await expectNotFound(await pub(`/shares/${id}/${link.id}`));
    expect(await h.db.select().from(shareLinks).where(eq(shareLinks.id, link.id))).toHaveLength(0);
  });
});

describe('server-rendered page context', () => {
  it('resolves a link for the share page, counting the view, and null for bad links', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers);
    const link = (await share(u.headers, id)).json.data;
    await h.app.request(`/transcript/share/${id}/${link.id}`, { headers: { cookie: 'i18n_redirected=en' } });
    const ctx = seen.at(-1)!;
    const shared = await ctx.getSharedTranscript(id, link.id);
    expect(shared).toMatchObject({ name: 'meeting', share_id: link.id, media_url: null });
    expect(shared!.segments).toHaveLength(2);
    expect(await ctx.getSharedTranscript(id, UNKNOWN_SHARE)).toBeNull();
    expect(await ctx.getSharedTranscript('nope', link.id)).toBeNull();
    expect(await ctx.getSharedTranscript(id, 'x')).toBeNull();
    const list = await api('GET', `/transcripts/${id}/shares`, u.headers);
    expect(list.json.data.items[0].views).toBe(1);
  });

  it('says why a link that worked no longer does: revoked or expired, never for unknown links', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers);
    const live = (await share(u.headers, id)).json.data;
    const gone = (await share(u.headers, id)).json.data;
    await api('DELETE', `/transcripts/${id}/shares/${gone.id}`, u.headers);
    await h.app.request(`/transcript/share/${id}/${live.id}`, { headers: { cookie: 'i18n_redirected=en' } });
    const ctx = seen.at(-1)!;
    expect(await ctx.getClosedShare(id, live.id)).toBeNull();
    expect(await ctx.getClosedShare(id, gone.id)).toBe('revoked');
    expect(await ctx.getClosedShare(id, UNKNOWN_SHARE)).toBeNull();
    const other = await importSrt(u.headers);
    expect(await ctx.getClosedShare(other, gone.id)).toBeNull();
    await h.db
      .update(shareLinks)
      .set({ expiresAt: new Date(clock.getTime() - 1000) })
      .where(eq(shareLinks.id, live.id));
    expect(await ctx.getClosedShare(id, live.id)).toBe('expired');
  });
});
