import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { tusUpload } from '../test/tus';
import { signedInUser } from '../test/users';

// Text with NUL (PostgreSQL refuses it) or other control characters is refused
// with a clear 4xx wherever it comes in — never a 500.
let h: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  h = await testApp({}, { DATA_DIR: 'tmp/test-data-control' });
});
afterAll(() => h.close());

type Json = { code: number; message: string; message_key?: string; data: any };
async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await h.app.request(path, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { res, json: (await res.json()) as Json };
}

const NUL = 'a\u0000b';

function expectClear4xx(r: { res: Response; json: Json }, what: string) {
  expect(r.res.status, `${what}: ${JSON.stringify(r.json)}`).toBeGreaterThanOrEqual(400);
  expect(r.res.status, what).toBeLessThan(500);
  expect(r.json.code, what).not.toBe(500);
}

describe('NUL bytes and control characters in text', () => {
  it('answers 4xx in every text field the probe found, and the names stay usable', async () => {
    const u = await signedInUser(h.db);
    const srt = '1\n00:00:00,000 --> 00:00:01,000\nhello\n';
    const form = new FormData();
    form.set('file', new File([srt], 'ok.srt'));
    const imported = await h.app.request('/self-api/v1/transcripts/import', {
      method: 'POST',
      headers: u.headers,
      body: form,
    });
    const transcript = ((await imported.json()) as Json).data;
    const folder = (await call('POST', '/self-api/v1/folders', u.headers, { name: 'F' })).json.data;

    const probes: [string, string, string, unknown][] = [
      ['transcript name', 'PATCH', `/self-api/v1/transcripts/${transcript.id}`, { name: NUL }],
      [
        'segment text',
        'PATCH',
        `/self-api/v1/transcripts/${transcript.id}/segments`,
        { op: 'text', index: 0, text: NUL },
      ],
      [
        'segments replaced',
        'PATCH',
        `/self-api/v1/transcripts/${transcript.id}/segments`,
        { op: 'replace', segments: [{ start: 0, end: 1, text: NUL }] },
      ],
      ['folder name', 'POST', '/self-api/v1/folders', { name: NUL }],
      ['folder rename', 'PATCH', `/self-api/v1/folders/${folder.id}`, { name: NUL }],
      ['profile name', 'PUT', '/common-api/v1/user', { name: NUL }],
      ['search q', 'GET', `/self-api/v1/transcripts?q=${encodeURIComponent(NUL)}`, undefined],
      [
        'sign-up name',
        'POST',
        '/common-api/v1/signup',
        { email: 'nul@example.com', password: 'long enough 1', name: NUL },
      ],
      ['control character', 'POST', '/self-api/v1/folders', { name: 'bell\u0007' }],
      ['lone surrogate', 'POST', '/self-api/v1/folders', { name: 'x\ud800' }],
    ];
    for (const [what, method, path, body] of probes) {
      const r = await call(method, path, u.headers, body);
      expectClear4xx(r, what);
    }
    const field = await call('POST', '/self-api/v1/folders', u.headers, { name: NUL });
    expect(field.json).toMatchObject({
      code: 422,
      data: { field_keys: { name: 'validation.controlChars' } },
    });

    // Line breaks and tabs are text in a segment, not control characters to refuse.
    const multi = await call('PATCH', `/self-api/v1/transcripts/${transcript.id}/segments`, u.headers, {
      op: 'text',
      index: 0,
      text: 'two\nlines\tand a tab',
    });
    expect(multi.json.code).toBe(200);
  });

  it('answers 422 with a translated message, never a 500, to a body nested 100,000 deep', async () => {
    const u = await signedInUser(h.db);
    const deep = '{"name":'.repeat(100_000) + '"x"' + '}'.repeat(100_000);
    const arrays = '['.repeat(100_000) + ']'.repeat(100_000);
    for (const [path, body] of [
      ['/self-api/v1/folders', deep],
      ['/self-api/v1/folders', arrays],
      ['/common-api/v1/login', deep],
    ] as const) {
      const res = await h.app.request(path, {
        method: 'POST',
        headers: { ...u.headers, 'content-type': 'application/json' },
        body,
      });
      const json = (await res.json()) as Json;
      expect(res.status, path).toBe(422);
      expect(Object.values(json.data.field_keys)).toEqual(['validation.tooDeep']);
    }
    expect((await call('POST', '/self-api/v1/folders', u.headers, { name: 'Shallow' })).json.code).toBe(200);
  });

  it('refuses an affiliate label with NUL', async () => {
    const u = await signedInUser(h.db);
    expect(
      (await call('POST', '/common-api/v1/distribution', u.headers, { accept_terms: true })).json.code,
    ).toBe(200);
    expectClear4xx(
      await call('POST', '/common-api/v1/distribution/code', u.headers, { label: NUL }),
      'label',
    );
  });

  it('imports a caption file with NUL bytes without them', async () => {
    const u = await signedInUser(h.db);
    const form = new FormData();
    form.set('file', new File(['1\n00:00:00,000 --> 00:00:01,000\nhel\u0000lo\u0001\n'], 'nul.srt'));
    const res = await h.app.request('/self-api/v1/transcripts/import', {
      method: 'POST',
      headers: u.headers,
      body: form,
    });
    const json = (await res.json()) as Json;
    expect(res.status, JSON.stringify(json)).toBe(200);
    expect(json.data.segments[0].text).toBe('hello');

    const named = new FormData();
    named.set('file', new File(['1\n00:00:00,000 --> 00:00:01,000\nhi\n'], 'bad\u0000name.srt'));
    const res2 = await h.app.request('/self-api/v1/transcripts/import', {
      method: 'POST',
      headers: u.headers,
      body: named,
    });
    expect(res2.status).toBe(200);
    expect(((await res2.json()) as Json).data.name).toBe('badname');
  });

  it('answers 422, not 500, when the database itself refuses a value (the net)', async () => {
    const { sql } = await import('drizzle-orm');
    const { isRefusedInput } = await import('../http/db-errors');
    const err = await h.db.execute(sql`select ${'a\u0000b'}::text`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).not.toBeNull();
    expect(isRefusedInput(err)).toBe(true);
    expect(isRefusedInput(new Error('boom'))).toBe(false);
  });

  it('keeps control characters out of an uploaded file name', async () => {
    const u = await signedInUser(h.db);
    const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
    const { id, response } = await tusUpload(
      fetcher,
      u.headers,
      Buffer.from('not media at all'),
      'evil\u0000name.mp4',
    );
    expect(response.status).toBe(204);
    const created = await call('POST', '/self-api/v1/transcripts', u.headers, { upload_id: id });
    expect(created.res.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json.data.name).toBe('evilname');
    expect(created.json.data.media.name).toBe('evilname.mp4');
  });
});
