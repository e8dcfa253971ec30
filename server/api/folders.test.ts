import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type ApiJson } from '../test/harness';
import { signedInUser } from '../test/users';
import { newFolder } from '../test/factories';

type Json = ApiJson;
let h: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  h = await testApp({}, { DATA_DIR: 'tmp/test-data-folders' });
});
afterAll(async () => h?.close());

const api = (method: string, p: string, headers: Record<string, string>, body?: unknown) =>
  h.api(method, p, headers, body);

async function importSrt(headers: Record<string, string>, name: string, folderId?: string) {
  const form = new FormData();
  form.set('file', new File(['1\n00:00:01,000 --> 00:00:02,000\nHello\n'], 'a.srt'));
  form.set('name', name);
  if (folderId) form.set('folder_id', folderId);
  const res = await h.app.request('/self-api/v1/transcripts/import', { method: 'POST', headers, body: form });
  return ((await res.json()) as Json).data.id as string;
}

describe('folders', () => {
  it('creates, lists with counts, renames, refuses duplicates', async () => {
    const u = await signedInUser(h.db);
    const a = await api('POST', '/folders', u.headers, { name: 'Interviews' });
    expect(a.json.data).toMatchObject({ name: 'Interviews' });
    await importSrt(u.headers, 'one', a.json.data.id);
    const dup = await api('POST', '/folders', u.headers, { name: 'interviews' });
    expect(dup.res.status).toBe(409);
    expect(dup.json.message_key).toBe('errors.folders.nameTaken');
    await api('POST', '/folders', u.headers, { name: 'Archive' });
    const list = await api('GET', '/folders', u.headers);
    expect(list.json.data.items.map((f: any) => [f.name, f.transcript_count])).toEqual([
      ['Archive', 0],
      ['Interviews', 1],
    ]);
    const renamed = await api('PATCH', `/folders/${a.json.data.id}`, u.headers, { name: 'Calls' });
    expect(renamed.json.data.name).toBe('Calls');
    expect((await api('POST', '/folders', u.headers, { name: '  ' })).res.status).toBe(422);
  });

  it('lists one folder, the root, and moves transcripts between them', async () => {
    const u = await signedInUser(h.db);
    const folder = (await newFolder(h.db, u.user.id, { name: 'F' })).id;
    const inside = await importSrt(u.headers, 'inside', folder);
    const outside = await importSrt(u.headers, 'outside');
    const names = async (q: string) =>
      (await api('GET', `/transcripts?${q}`, u.headers)).json.data.items.map((t: any) => t.name);
    expect(await names(`folder_id=${folder}`)).toEqual(['inside']);
    expect(await names('root=1')).toEqual(['outside']);
    await api('POST', '/transcripts/move', u.headers, { ids: [outside], folder_id: folder });
    expect((await names(`folder_id=${folder}`)).sort()).toEqual(['inside', 'outside']);
    await api('POST', '/transcripts/move', u.headers, { ids: [inside], folder_id: null });
    expect(await names('root=1')).toEqual(['inside']);
  });

  it('deletes a folder moving its transcripts to the root, or deleting them too', async () => {
    const u = await signedInUser(h.db);
    const keep = (await newFolder(h.db, u.user.id, { name: 'Keep' })).id;
    const t1 = await importSrt(u.headers, 'survivor', keep);
    await api('DELETE', `/folders/${keep}?contents=move`, u.headers);
    const got = await api('GET', `/transcripts/${t1}`, u.headers);
    expect(got.json.data.folder_id).toBeNull();

    const drop = (await newFolder(h.db, u.user.id, { name: 'Drop' })).id;
    const t2 = await importSrt(u.headers, 'gone', drop);
    await api('DELETE', `/folders/${drop}?contents=delete`, u.headers);
    expect((await api('GET', `/transcripts/${t2}`, u.headers)).res.status).toBe(404);
    expect((await api('GET', `/folders/${drop}`, u.headers)).res.status).toBe(404);
  });

  it('deletes several transcripts at once', async () => {
    const u = await signedInUser(h.db);
    const a = await importSrt(u.headers, 'a');
    const b = await importSrt(u.headers, 'b');
    const res = await api('POST', '/transcripts/delete', u.headers, { ids: [a, b] });
    expect(res.json.data.deleted).toBe(2);
    expect((await api('GET', '/transcripts', u.headers)).json.data.total).toBe(0);
  });

  it("keeps someone else's folders and transcripts out of reach", async () => {
    const owner = await signedInUser(h.db);
    const other = await signedInUser(h.db);
    const folder = (await newFolder(h.db, owner.user.id, { name: 'Private' })).id;
    const t = await importSrt(owner.headers, 'secret', folder);
    for (const [method, p, body] of [
      ['GET', `/folders/${folder}`],
      ['PATCH', `/folders/${folder}`, { name: 'x' }],
      ['DELETE', `/folders/${folder}`],
      ['GET', `/transcripts?folder_id=${folder}`],
    ] as const) {
      expect((await api(method, p, other.headers, body)).res.status, `${method} ${p}`).toBe(404);
    }
    const mine = (await newFolder(h.db, other.user.id, { name: 'Mine' })).id;
    expect(
      (await api('POST', '/transcripts/move', other.headers, { ids: [t], folder_id: mine })).res.status,
    ).toBe(404);
    expect(
      (await api('POST', '/transcripts/move', owner.headers, { ids: [t], folder_id: mine })).res.status,
    ).toBe(404);
    expect((await api('POST', '/transcripts/delete', other.headers, { ids: [t] })).res.status).toBe(404);
    expect((await api('GET', '/folders/not-a-uuid', owner.headers)).res.status).toBe(404);
    expect((await api('GET', `/transcripts/${t}`, owner.headers)).json.data.folder_id).toBe(folder);
  });
});
