import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { newTranscript } from '../test/factories';
import { signedInUser } from '../test/users';

type Json = { code: number; message: string; message_key?: string; data: any };
let h: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  h = await testApp({}, { DATA_DIR: 'tmp/test-data-exports', APP_NAME: 'ClipScribe' });
});
afterAll(async () => h?.close());

const SRT =
  '1\n00:00:01,000 --> 00:00:04,500\nHello there\n\n' +
  '2\n00:00:05,000 --> 00:00:09,250\nשלום 👋\n\n' +
  '3\n01:00:00,000 --> 01:00:02,000\nAn hour in\n';

async function importSrt(headers: Record<string, string>, name: string, opts: { language?: string } = {}) {
  const form = new FormData();
  form.set('file', new File([SRT], 'talk.srt'));
  form.set('name', name);
  if (opts.language) form.set('language', opts.language);
  const res = await h.app.request('/self-api/v1/transcripts/import', { method: 'POST', headers, body: form });
  const json = (await res.json()) as Json;
  expect(json.code, JSON.stringify(json)).toBe(200);
  return json.data.id as string;
}

function exportOne(headers: Record<string, string>, id: string, query: string) {
  return h.app.request(`/self-api/v1/transcripts/${id}/export?${query}`, { headers });
}

function exportMany(headers: Record<string, string>, body: unknown) {
  return h.app.request('/self-api/v1/transcripts/export', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const bytes = async (res: Response) => new Uint8Array(await res.arrayBuffer());

function expectFileHeaders(res: Response, type: string, disposition: string, length: number) {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe(type);
  expect(res.headers.get('content-disposition')).toBe(disposition);
  expect(res.headers.get('content-length')).toBe(String(length));
  expect(res.headers.get('cache-control')).toBe('private, no-store');
}

describe('GET /transcripts/:id/export', () => {
  it('exports txt without and with timestamps', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers, 'Weekly meeting');

    const plain = await exportOne(u.headers, id, 'format=txt');
    const plainText = 'Hello there\n\nשלום 👋\n\nAn hour in\n';
    expectFileHeaders(
      plain,
      'text/plain; charset=utf-8',
      `attachment; filename="Weekly meeting.txt"; filename*=UTF-8''Weekly%20meeting.txt`,
      new TextEncoder().encode(plainText).length,
    );
    expect(await plain.text()).toBe(plainText);

    const timed = await exportOne(u.headers, id, 'format=txt&timestamps=1');
    expect(await timed.text()).toBe(
      '0:01 - 0:04\nHello there\n\n0:05 - 0:09\nשלום 👋\n\n1:00:00 - 1:00:02\nAn hour in\n',
    );
  });

  it('exports srt', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers, 'Talk');
    const res = await exportOne(u.headers, id, 'format=srt');
    const expected =
      '1\n00:00:01,000 --> 00:00:04,500\nHello there\n\n' +
      '2\n00:00:05,000 --> 00:00:09,250\nשלום 👋\n\n' +
      '3\n01:00:00,000 --> 01:00:02,000\nAn hour in\n\n';
    expectFileHeaders(
      res,
      'application/x-subrip; charset=utf-8',
      `attachment; filename="Talk.srt"; filename*=UTF-8''Talk.srt`,
      new TextEncoder().encode(expected).length,
    );
    expect(await res.text()).toBe(expected);
  });

  it('exports vtt and json for a paid plan', async () => {
    const u = await signedInUser(h.db, { rankName: 'STARTER' });
    const id = await importSrt(u.headers, 'Café: "Q&A"', { language: 'he' });

    const vtt = await exportOne(u.headers, id, 'format=vtt');
    const vttText =
      'WEBVTT\n\n' +
      '00:00:01.000 --> 00:00:04.500\nHello there\n\n' +
      '00:00:05.000 --> 00:00:09.250\nשלום 👋\n\n' +
      '01:00:00.000 --> 01:00:02.000\nAn hour in\n';
    expectFileHeaders(
      vtt,
      'text/vtt; charset=utf-8',
      `attachment; filename="Cafe_ _Q&A_.vtt"; filename*=UTF-8''Caf%C3%A9_%20_Q%26A_.vtt`,
      new TextEncoder().encode(vttText).length,
    );
    expect(await vtt.text()).toBe(vttText);

    const json = await exportOne(u.headers, id, 'format=json');
    const jsonText = `${JSON.stringify(
      {
        name: 'Café: "Q&A"',
        duration: 3602,
        language: 'he',
        segments: [
          { start: 1, end: 4.5, text: 'Hello there' },
          { start: 5, end: 9.25, text: 'שלום 👋' },
          { start: 3600, end: 3602, text: 'An hour in' },
        ],
      },
      null,
      2,
    )}\n`;
    expectFileHeaders(
      json,
      'application/json; charset=utf-8',
      `attachment; filename="Cafe_ _Q&A_.json"; filename*=UTF-8''Caf%C3%A9_%20_Q%26A_.json`,
      new TextEncoder().encode(jsonText).length,
    );
    expect(await json.text()).toBe(jsonText);
  });

  it('exports docx for a paid plan', async () => {
    const u = await signedInUser(h.db, { rankName: 'BASIC' });
    const id = await importSrt(u.headers, 'Board call');
    const res = await exportOne(u.headers, id, 'format=docx');
    const body = await bytes(res);
    expectFileHeaders(
      res,
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      `attachment; filename="Board call.docx"; filename*=UTF-8''Board%20call.docx`,
      body.length,
    );
    const xml = strFromU8(unzipSync(body)['word/document.xml']!);
    expect(xml).toContain('<w:pStyle w:val="Heading1"/>');
    expect(xml).toContain('>Board call</w:t>');
    expect(xml).toContain('>(0:01 - 0:04)</w:t>');
    expect(xml).toContain('>שלום 👋</w:t>');
    expect(xml).toContain('>(1:00:00 - 1:00:02)</w:t>');
    expect(xml).toContain('>Transcribed with ClipScribe</w:t>');
  });

  it('exports speakers in every format once the transcript has them', async () => {
    const u = await signedInUser(h.db, { rankName: 'STARTER' });
    const id = await importSrt(u.headers, 'Panel');
    const patch = (body: unknown) =>
      h.app.request(`/self-api/v1/transcripts/${id}/segments`, {
        method: 'PATCH',
        headers: { ...u.headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await patch({ op: 'add_speaker', name: 'Ann', indices: [0, 2] })).status).toBe(200);
    expect((await patch({ op: 'add_speaker', name: 'Ben', indices: [1] })).status).toBe(200);

    expect(await (await exportOne(u.headers, id, 'format=txt')).text()).toBe(
      'Ann: Hello there\n\nBen: שלום 👋\n\nAnn: An hour in\n',
    );
    expect(await (await exportOne(u.headers, id, 'format=srt')).text()).toBe(
      '1\n00:00:01,000 --> 00:00:04,500\nAnn: Hello there\n\n' +
        '2\n00:00:05,000 --> 00:00:09,250\nBen: שלום 👋\n\n' +
        '3\n01:00:00,000 --> 01:00:02,000\nAnn: An hour in\n\n',
    );
    expect(await (await exportOne(u.headers, id, 'format=vtt')).text()).toBe(
      'WEBVTT\n\n' +
        '00:00:01.000 --> 00:00:04.500\n<v Ann>Hello there\n\n' +
        '00:00:05.000 --> 00:00:09.250\n<v Ben>שלום 👋\n\n' +
        '01:00:00.000 --> 01:00:02.000\n<v Ann>An hour in\n',
    );
    const json = JSON.parse(await (await exportOne(u.headers, id, 'format=json')).text());
    expect(json.speakers).toEqual([
      { id: 's1', name: 'Ann' },
      { id: 's2', name: 'Ben' },
    ]);
    expect(json.segments.map((s: { speaker: string }) => s.speaker)).toEqual(['s1', 's2', 's1']);
    const docx = unzipSync(await bytes(await exportOne(u.headers, id, 'format=docx')));
    expect(strFromU8(docx['word/document.xml']!)).toContain(
      '<w:r><w:rPr><w:b/><w:bCs/><w:sz w:val="24"/><w:szCs w:val="24"/></w:rPr><w:br/><w:t xml:space="preserve">Ben: </w:t></w:r>',
    );
    // The zip of several transcripts carries them too.
    const files = unzipSync(await bytes(await exportMany(u.headers, { ids: [id], format: 'txt' })));
    expect(strFromU8(files['Panel.txt']!)).toBe('Ann: Hello there\n\nBen: שלום 👋\n\nAnn: An hour in\n');
  });

  it('refuses a format outside the plan with 40304', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers, 'Free');
    for (const format of ['docx', 'vtt', 'json']) {
      const res = await exportOne(u.headers, id, `format=${format}`);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        code: 40304,
        message_key: 'errors.exports.formatNotInPlan',
        data: { format },
      });
    }
    // Custom limits of an Enterprise account decide too.
    const e = await signedInUser(h.db, { rankName: 'Enterprise', customLimits: { export_formats: ['txt'] } });
    const eid = await importSrt(e.headers, 'Enterprise');
    expect((await exportOne(e.headers, eid, 'format=srt')).status).toBe(403);
    expect((await exportOne(e.headers, eid, 'format=txt')).status).toBe(200);
  });

  it("answers 404 for someone else's transcript and for malformed or unknown ids", async () => {
    const owner = await signedInUser(h.db);
    const other = await signedInUser(h.db);
    const id = await importSrt(owner.headers, 'Private');
    for (const path of [id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await exportOne(other.headers, path, 'format=txt');
      expect(res.status).toBe(404);
      expect(((await res.json()) as Json).message_key).toBe('errors.transcripts.notFound');
    }
  });

  it('answers 409 while the transcript is not finished', async () => {
    const u = await signedInUser(h.db);
    const row = await newTranscript(h.db, u.user.id, { name: 'Pending', status: 'processing' });
    const res = await exportOne(u.headers, row!.id, 'format=txt');
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      code: 40907,
      message_key: 'errors.exports.notReady',
      data: { ids: [row!.id] },
    });
  });

  it('validates the format and requires a session', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers, 'Talk');
    for (const q of ['format=pdf', '', 'format=txt&timestamps=maybe']) {
      const res = await exportOne(u.headers, id, q);
      expect(res.status).toBe(422);
      expect(((await res.json()) as Json).message_key).toBe('errors.api.validation');
    }
    expect((await exportOne({}, id, 'format=txt')).status).toBe(401);
  });
});

describe('POST /transcripts/export', () => {
  it('zips several transcripts, numbering repeated names', async () => {
    const u = await signedInUser(h.db);
    const a = await importSrt(u.headers, 'Interview');
    const b = await importSrt(u.headers, 'Interview');
    const c = await importSrt(u.headers, 'Notes');
    const res = await exportMany(u.headers, { ids: [a, b, c], format: 'txt', timestamps: true });
    const body = await bytes(res);
    const name = `transcripts-${new Date().toISOString().slice(0, 10)}.zip`;
    expectFileHeaders(
      res,
      'application/zip',
      `attachment; filename="${name}"; filename*=UTF-8''${name}`,
      body.length,
    );
    const files = unzipSync(body);
    expect(Object.keys(files)).toEqual(['Interview.txt', 'Interview (2).txt', 'Notes.txt']);
    const text = '0:01 - 0:04\nHello there\n\n0:05 - 0:09\nשלום 👋\n\n1:00:00 - 1:00:02\nAn hour in\n';
    for (const f of Object.values(files)) expect(strFromU8(f)).toBe(text);
  });

  it('zips two srt files with the right content', async () => {
    const u = await signedInUser(h.db);
    const a = await importSrt(u.headers, 'First');
    const b = await importSrt(u.headers, 'Second');
    const files = unzipSync(await bytes(await exportMany(u.headers, { ids: [b, a], format: 'srt' })));
    expect(Object.keys(files)).toEqual(['Second.srt', 'First.srt']);
    expect(strFromU8(files['First.srt']!)).toBe(
      '1\n00:00:01,000 --> 00:00:04,500\nHello there\n\n' +
        '2\n00:00:05,000 --> 00:00:09,250\nשלום 👋\n\n' +
        '3\n01:00:00,000 --> 01:00:02,000\nAn hour in\n\n',
    );
  });

  it('zips docx files as valid documents', async () => {
    const u = await signedInUser(h.db, { rankName: 'UNLIMITED' });
    const a = await importSrt(u.headers, 'مقابلة');
    const files = unzipSync(await bytes(await exportMany(u.headers, { ids: [a, a], format: 'docx' })));
    // A repeated id is one entry.
    expect(Object.keys(files)).toEqual(['مقابلة.docx']);
    const xml = strFromU8(unzipSync(files['مقابلة.docx']!)['word/document.xml']!);
    expect(xml).toContain('>مقابلة</w:t>');
  });

  it('fails the whole request for an id that is not the caller’s', async () => {
    const u = await signedInUser(h.db);
    const other = await signedInUser(h.db);
    const mine = await importSrt(u.headers, 'Mine');
    const theirs = await importSrt(other.headers, 'Theirs');
    const missing = await exportMany(u.headers, { ids: [mine, theirs], format: 'txt' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Json).message_key).toBe('errors.transcripts.notFound');
  });

  it('exports the finished ones and names the unfinished ones it left out', async () => {
    const u = await signedInUser(h.db);
    const first = await importSrt(u.headers, 'Finished one');
    const pending = await newTranscript(h.db, u.user.id, { name: 'Pending' });
    const failed = await newTranscript(h.db, u.user.id, { name: 'Failed', status: 'failed' });
    const second = await importSrt(u.headers, 'Finished two');
    const res = await exportMany(u.headers, {
      ids: [first, pending!.id, second, failed!.id],
      format: 'txt',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-export-skipped')).toBe(`${pending!.id},${failed!.id}`);
    expect(Object.keys(unzipSync(await bytes(res)))).toEqual(['Finished one.txt', 'Finished two.txt']);

    // Nothing skipped: the header is there, empty.
    const all = await exportMany(u.headers, { ids: [first], format: 'txt' });
    expect(all.headers.get('x-export-skipped')).toBe('');
  });

  it('refuses with the unfinished ids when none is finished', async () => {
    const u = await signedInUser(h.db);
    const pending = await newTranscript(h.db, u.user.id, { name: 'Pending' });
    const running = await newTranscript(h.db, u.user.id, { name: 'Running', status: 'processing' });
    const busy = await exportMany(u.headers, { ids: [pending!.id, running!.id], format: 'txt' });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toMatchObject({
      code: 40907,
      message_key: 'errors.exports.notReady',
      data: { ids: [pending!.id, running!.id] },
    });
  });

  it('checks the plan and the body', async () => {
    const u = await signedInUser(h.db);
    const id = await importSrt(u.headers, 'Talk');
    const docx = await exportMany(u.headers, { ids: [id], format: 'docx' });
    expect(docx.status).toBe(403);
    expect(((await docx.json()) as Json).code).toBe(40304);
    for (const body of [
      { ids: [], format: 'txt' },
      { ids: ['nope'], format: 'txt' },
      { ids: [id], format: 'pdf' },
      { ids: Array.from({ length: 201 }, () => id), format: 'txt' },
      { ids: [id], format: 'txt', extra: 1 },
    ]) {
      expect((await exportMany(u.headers, body)).status).toBe(422);
    }
  });
});
