import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { makeMedia } from '../test/media';
import { tusUpload } from '../test/tus';
import { signedInUser } from '../test/users';
import { transcripts } from '../db/schema';

// Media goes out only with a type the server determined, else as a download,
// and always sandboxed, so an uploaded page can never run script on the app's origin.
type Json = { code: number; data: any };
let h: Awaited<ReturnType<typeof testApp>>;
const MEDIA_DIR = path.resolve('tmp/test-media');
beforeAll(async () => {
  h = await testApp({}, { DATA_DIR: 'tmp/test-data-media-serving' });
});
afterAll(() => h.close());

const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
const HTML = Buffer.from('<!doctype html><script>parent.document.title="owned"</script>');

async function create(headers: Record<string, string>, bytes: Buffer, filename: string, filetype: string) {
  const { id } = await tusUpload(fetcher, headers, bytes, filename, { filetype });
  const res = await h.app.request('/self-api/v1/transcripts', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ upload_id: id }),
  });
  return ((await res.json()) as Json).data;
}

describe('serving uploaded media', () => {
  it('never keeps the client-chosen type of a file that is not media', async () => {
    const u = await signedInUser(h.db);
    const t = await create(u.headers, HTML, 'page.html', 'text/html');
    expect(t.status).toBe('failed');
    expect(t.media.type).toBeNull();
    const res = await h.app.request(`/self-api/v1/transcripts/${t.id}/media`, { headers: u.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('downloads a stored type that is not playable media (rows from before the rule)', async () => {
    const u = await signedInUser(h.db);
    const t = await create(u.headers, HTML, 'old.html', 'text/html');
    await h.db.update(transcripts).set({ mediaType: 'text/html' }).where(eq(transcripts.id, t.id));
    const res = await h.app.request(`/self-api/v1/transcripts/${t.id}/media`, { headers: u.headers });
    expect(res.headers.get('content-type')).not.toContain('html');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it('plays real media inline with the type ffprobe found, still sandboxed', async () => {
    const u = await signedInUser(h.db);
    const file = makeMedia(MEDIA_DIR, 'mp3', 2);
    // The client claims HTML; the server believes ffprobe.
    const t = await create(u.headers, readFileSync(file), 'song.mp3', 'text/html');
    expect(t.media.type).toBe('audio/mpeg');
    const res = await h.app.request(`/self-api/v1/transcripts/${t.id}/media`, {
      headers: { ...u.headers, range: 'bytes=0-99' },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('serves nothing through a play-only share link for a file that cannot play', async () => {
    const u = await signedInUser(h.db);
    const t = await create(u.headers, HTML, 'page.html', 'text/html');
    // A finished transcript whose stored type is not playable (a row from before the rule).
    await h.db
      .update(transcripts)
      .set({ status: 'done', mediaType: 'text/html' })
      .where(eq(transcripts.id, t.id));
    const share = await h.app.request(`/self-api/v1/transcripts/${t.id}/shares`, {
      method: 'POST',
      headers: { ...u.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ allow_media: true, allow_download: false }),
    });
    const link = ((await share.json()) as Json).data;
    const res = await h.app.request(`/self-api/v1/shares/${t.id}/${link.id}/media`);
    expect(res.status).toBe(404);
  });
});
