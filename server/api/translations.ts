import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { AppEnv } from '../http/app-env';
import { requireActor } from '../http/current-actor';
import { uuidParam } from '../http/current-user';
import { fileResponse } from '../http/file-response';
import { readBody, readQuery } from '../http/validate';
import { ok } from '../../common/envelope';
import { EXPORT_FORMATS } from '../../common/ranks';
import { MAX_SEGMENT_TEXT } from '../../common/segments';
import { TRANSLATION_LANGUAGES, translationLanguage } from '../../common/translation-languages';
import { stripControlChars } from '../../common/text';
import type { TranslationEventsSource } from '../modules/translation/live';
import { trackFor, trackNotFound } from '../modules/translation/access';
import { createTrack } from '../modules/translation/create';
import type { TranslationDeps } from '../modules/translation/deps';
import { editTrack } from '../modules/translation/edit';
import { pendingOf, pendingRetranslations, requestRetranslation } from '../modules/translation/retranslate';
import { allTracksExportFile, trackExportFile } from '../modules/translation/export';
import { glossaryOf, MAX_GLOSSARY_TERMS, setGlossary } from '../modules/translation/glossary';
import { tracksOf } from '../modules/translation/list';
import { trackEvents } from '../modules/translation/live';
import { trackJson } from '../modules/translation/payload';
import { translationQuota } from '../modules/translation/quota';
import { transcriptNotFound } from '../modules/transcription/ownership';

export const createTrackSchema = z
  .object({ language: z.string().refine((v) => translationLanguage(v) !== null, 'validation.language') })
  .strict();
export const editTrackSchema = z
  .object({
    revision: z.number().int().min(0),
    edits: z
      .array(
        z
          .object({
            index: z.number().int().min(0),
            text: z
              .string()
              .max(MAX_SEGMENT_TEXT, 'validation.tooLong')
              .transform((v) => stripControlChars(v)),
          })
          .strict(),
      )
      .min(1)
      .max(500),
  })
  .strict();
export const trackExportQuery = z.object({
  format: z.enum(EXPORT_FORMATS),
  bilingual: z
    .enum(['0', '1', 'false', 'true'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
  timestamps: z
    .enum(['0', '1', 'false', 'true'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});
export const allTracksQuery = z.object({ format: z.enum(EXPORT_FORMATS) });
const term = z
  .string()
  .trim()
  .min(1, 'validation.required')
  .max(100, 'validation.tooLong')
  .transform((v) => stripControlChars(v));
export const glossarySchema = z
  .object({
    terms: z.array(z.object({ source: term, target: term.nullable() }).strict()).max(MAX_GLOSSARY_TERMS),
  })
  .strict();

const PRIVATE = { 'Cache-Control': 'private, no-store' };

/** /self-api/v1: translation tracks of a transcript (docs/decisions/0030-translation-tracks.md). */
export function translationsApi() {
  const api = new Hono<AppEnv>();
  const deps = (c: Context<AppEnv>): TranslationDeps => c.get('deps').services.translation;
  const trackId = (c: Context<AppEnv>) => uuidParam(c, 'id', trackNotFound);
  const productName = (c: Context<AppEnv>): string => c.get('deps').env.APP_NAME;

  api.get('/translation-languages', (c) => c.json(ok({ languages: TRANSLATION_LANGUAGES })));

  api.get('/transcripts/:id/translations', async (c) => {
    const actor = await requireActor(c);
    const { transcript, workspace, tracks } = await tracksOf(
      deps(c),
      actor,
      uuidParam(c, 'id', transcriptNotFound),
    );
    // The plan's characters left this month come along for the translate dialog.
    const quota = await translationQuota(deps(c).db, workspace, deps(c).now());
    const pending = await pendingRetranslations(deps(c).queue);
    return c.json(
      ok({
        items: tracks.map((t) => ({
          ...trackJson(t, transcript.updatedAt),
          retranslating: pending.get(t.id) ?? [],
        })),
        quota,
      }),
    );
  });

  api.post('/transcripts/:id/translations', async (c) => {
    const actor = await requireActor(c);
    const id = uuidParam(c, 'id', transcriptNotFound);
    const body = await readBody(c, createTrackSchema);
    const track = await createTrack(deps(c), actor, id, body.language);
    return c.json(ok(trackJson(track)));
  });

  api.get('/transcripts/:id/translations/export', async (c) => {
    const actor = await requireActor(c);
    const q = readQuery(c, allTracksQuery);
    const file = await allTracksExportFile(
      deps(c),
      actor,
      uuidParam(c, 'id', transcriptNotFound),
      q.format,
      productName(c),
    );
    return fileResponse(file, PRIVATE);
  });

  api.get('/translations/:id', async (c) => {
    const actor = await requireActor(c);
    const track = await trackFor(deps(c).db, actor, trackId(c), 'transcript.read');
    return c.json(ok({ ...trackJson(track), retranslating: await pendingOf(deps(c).queue, track.id) }));
  });

  api.patch('/translations/:id', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, editTrackSchema);
    const track = await editTrack(deps(c), actor, trackId(c), body.revision, body.edits);
    return c.json(ok(trackJson(track)));
  });

  api.post('/translations/:id/segments/:index/retranslate', async (c) => {
    const actor = await requireActor(c);
    const index = Number(c.req.param('index'));
    const id = trackId(c);
    if (!Number.isInteger(index) || index < 0) throw trackNotFound();
    // Accepted: a job translates it; the text comes by GET /translations/:id/events ('retranslated').
    const { track, pending } = await requestRetranslation(deps(c), actor, id, index);
    return c.json(ok({ ...trackJson(track), retranslating: pending }), 202);
  });

  api.get('/translations/:id/export', async (c) => {
    const actor = await requireActor(c);
    const q = readQuery(c, trackExportQuery);
    const file = await trackExportFile(deps(c), actor, trackId(c), { ...q, productName: productName(c) });
    return fileResponse(file, PRIVATE);
  });

  // Progress and each translated segment as they come (server-sent events), until the track ends.
  api.get('/translations/:id/events', async (c) => {
    const actor = await requireActor(c);
    const source: TranslationEventsSource = await trackEvents(deps(c), actor, trackId(c));
    return streamSSE(c, async (stream) => {
      for await (const msg of source(c.req.raw.signal)) await stream.writeSSE(msg);
    });
  });

  api.get('/glossary', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok({ terms: await glossaryOf(deps(c).db, actor.workspace.id) }));
  });

  api.put('/glossary', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, glossarySchema);
    return c.json(ok({ terms: await setGlossary(deps(c).db, actor, body.terms) }));
  });

  return api;
}
