import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { errorText } from '../modules/messages/error-text';
import { localFileSizeMb } from '../../common/locale-format';
import { LOCALES } from '../../common/locales';
import { testApp } from '../test/harness';
import { signedInUser } from '../test/users';

type Json = { code: number; message: string; message_key: string; data: unknown };

let h: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  h = await testApp({}, { DATA_DIR: path.resolve('tmp/test-data-readable-errors') });
});
afterAll(async () => h?.close());

/** A user whose account language is `language`, with an API key. */
async function keyOwner(language: string) {
  const u = await signedInUser(h.db);
  await h.db.update(users).set({ language }).where(eq(users.id, u.user.id));
  const res = await h.app.request('/self-api/v1/api-keys', {
    method: 'POST',
    headers: { ...u.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'script' }),
  });
  const made = (await res.json()) as { data: { key: string } };
  return made.data.key;
}

async function missingTranscript(headers: Record<string, string>) {
  const res = await h.app.request(`/self-api/v1/transcripts/${randomUUID()}`, { headers });
  return { res, json: (await res.json()) as Json };
}

describe('error answers', () => {
  it('are a sentence in the language the request asks for, beside the stable key', async () => {
    const key = await keyOwner('ja');
    const { res, json } = await missingTranscript({
      authorization: `Bearer ${key}`,
      'accept-language': 'de',
    });
    expect(res.status).toBe(404);
    expect(json).toEqual({
      code: 40404,
      message: 'Dieses Transkript existiert nicht oder gehört nicht Ihnen.',
      message_key: 'errors.transcripts.notFound',
      data: null,
    });
    expect(res.headers.get('content-language')).toBe('de');
  });

  it("fall back to the API key owner's language when the request names none", async () => {
    const key = await keyOwner('ja');
    const { json } = await missingTranscript({ authorization: `Bearer ${key}` });
    expect(json.message_key).toBe('errors.transcripts.notFound');
    expect(json.message).toBe('この文字起こしは存在しないか、アクセス権がありません。');
  });

  it('follow the page language first, then the remembered one, and English without any hint', async () => {
    const key = await keyOwner('ja');
    const auth = { authorization: `Bearer ${key}`, 'accept-language': 'de' };
    const page = await missingTranscript({ ...auth, 'x-page-lang': 'es', cookie: 'i18n_redirected=fr' });
    expect(page.json.message).toBe('Esta transcripción no existe o no es tuya.');
    const cookie = await missingTranscript({ ...auth, cookie: 'i18n_redirected=fr' });
    expect(cookie.res.headers.get('content-language')).toBe('fr');
    expect(cookie.json.message).not.toMatch(/^errors\./);
    const anonymous = await h.app.request('/self-api/v1/no-such-thing');
    expect(await anonymous.json()).toEqual({
      code: 404,
      message: 'Not found.',
      message_key: 'errors.api.notFound',
      data: null,
    });
  });

  it('fill the placeholders and plurals from the answer data', async () => {
    expect(await errorText('de', 'errors.exports.formatNotInPlan', { format: 'DOCX' })).toBe(
      'Ihr Tarif enthält keine DOCX-Exporte. Wechseln Sie in einen höheren Tarif, um dieses Format zu nutzen.',
    );
    expect(await errorText('en', 'errors.transcripts.tooManyJobs', { count: 1 })).toMatch(
      /transcribes 1 file at a time/,
    );
    expect(await errorText('en', 'errors.transcripts.tooManyJobs', { count: 3 })).toMatch(
      /transcribes 3 files at a time/,
    );
    expect(await errorText('zh', 'errors.no.such.key', null)).toBe('errors.no.such.key');
  });

  it('give field errors as sentences in the request language beside their stable keys', async () => {
    const u = await signedInUser(h.db);
    const link = (lang: string) =>
      h.app.request('/self-api/v1/transcripts/from-link', {
        method: 'POST',
        headers: { ...u.headers, 'content-type': 'application/json', 'accept-language': lang },
        body: JSON.stringify({ url: 'not a link' }),
      });
    const en = (await (await link('en')).json()) as Json & { data: Record<string, Record<string, string>> };
    expect(en.message_key).toBe('errors.api.validation');
    expect(en.data.field_keys).toEqual({ url: 'validation.url' });
    expect(en.data.fields).toEqual({ url: 'Enter an address starting with http:// or https://.' });
    const de = (await (await link('de')).json()) as Json & { data: Record<string, Record<string, string>> };
    expect(de.data.field_keys).toEqual({ url: 'validation.url' });
    expect(de.data.fields!.url).not.toMatch(/^validation\./);
    expect(de.data.fields!.url).not.toBe(en.data.fields!.url);
  });

  it('write a size limit with the one size formatter, in every language (no raw placeholder)', async () => {
    expect(await errorText('en', 'errors.transcripts.fileTooLarge', { limit_mb: 1024 })).toBe(
      'This file is larger than your plan allows (1 GB per file). Upgrade your plan for larger files.',
    );
    expect(await errorText('fr', 'errors.transcripts.fileTooLarge', { limit_mb: 200 })).toMatch(/200\sMo/);
    expect(await errorText('en', 'errors.render.backgroundTooLarge', { max_mb: 5 })).toBe(
      'The picture is too large (at most 5 MB).',
    );
    for (const lang of LOCALES) {
      expect(await errorText(lang, 'errors.render.backgroundTooLarge', { max_mb: 5 }), lang).toContain(
        localFileSizeMb(lang, 5),
      );
      const text = await errorText(lang, 'errors.transcripts.fileTooLarge', { limit_mb: 10_240 });
      expect(text, lang).toContain(localFileSizeMb(lang, 10_240));
      expect(text, lang).not.toMatch(/\{\{|10240|10,240/);
    }
  });
});
