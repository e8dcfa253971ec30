import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { isTranscriptionLanguage } from '../../common/whisper-languages';
import type { AppEnv } from '../http/app-env';
import { uuidParam } from '../http/current-user';
import { requireActor } from '../http/current-actor';
import { cancelTranscript } from '../modules/transcription/cancel';
import { createFromUpload } from '../modules/transcription/create-from-upload';
import { deleteTranscript, deleteTranscripts } from '../modules/transcription/delete';
import { editSegments } from '../modules/transcription/edit-segments';
import { importCaptions } from '../modules/transcription/import-captions';
import { listTranscripts } from '../modules/transcription/list';
import { moveTranscripts } from '../modules/transcription/move';
import { ownTranscript, ownTranscriptSummary, transcriptNotFound } from '../modules/transcription/ownership';
import { renameTranscript } from '../modules/transcription/rename';
import { retryRun } from '../modules/link-import/retry';
import { ErrorCode } from '../../common/error-codes';
import { ApiError } from '../modules/errors';
import { ok } from '../../common/envelope';
import { readBody, readQuery } from '../http/validate';
import type { TranscriptionDeps } from '../modules/transcription/deps';
import { serveMedia } from '../http/serve-media';
import { fullJson, transcriptJson } from '../modules/transcription/payload';
import { liveEvents } from '../modules/transcription/live';
import { UUID_RE } from '../../common/validators';
import {
  identifySpeakersSchema,
  linkRunSchema,
  retrySchema,
  runOptionsFields,
  uploadRunSchema,
} from '../../common/run-options';
import { requestSpeakers } from '../modules/speakers/identify';
import { editRequestSchema } from '../../common/segment-edits';
import { importFromLink } from '../modules/link-import/start';
import { stripControlChars, textField } from '../../common/text';

const uuid = z.string().regex(UUID_RE, 'validation.uuid');

export const listSchema = z.object({
  folder_id: uuid.optional(),
  root: z.enum(['1', 'true']).optional(),
  q: textField({ max: 200 }).optional(),
  sort: z.enum(['created_at', 'name', 'duration']).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
/** A caption file (multipart), with its media's upload when given; the name and folder as any run. */
export const importSchema = runOptionsFields.pick({ name: true }).extend({
  file: z.instanceof(File, { message: 'validation.required' }),
  upload_id: z.string().min(1).max(64).optional(),
  language: z
    .string()
    .refine((v) => v !== 'auto' && isTranscriptionLanguage(v), 'validation.language')
    .optional(),
  folder_id: uuid.optional(),
});
export const renameSchema = z.object({ name: runOptionsFields.shape.name.unwrap() }).strict();
export const deleteSchema = z.object({ ids: z.array(uuid).min(1).max(500) }).strict();
export const moveSchema = z
  .object({ ids: z.array(uuid).min(1).max(500), folder_id: uuid.nullable() })
  .strict();

const CAPTIONS_MAX_BYTES = 10 * 1024 * 1024;

/** /self-api/v1/transcripts: every call checks that the transcript is the caller's. */
export function transcriptsApi() {
  const api = new Hono<AppEnv>();
  const deps = (c: Context<AppEnv>): TranscriptionDeps => c.get('deps').services.transcription;
  const idParam = (c: Context<AppEnv>) => uuidParam(c, 'id', transcriptNotFound);

  api.get('/', async (c) => {
    const actor = await requireActor(c);
    const q = readQuery(c, listSchema);
    const result = await listTranscripts(deps(c), actor, {
      folderId: q.folder_id,
      root: !!q.root,
      q: q.q,
      sort: q.sort,
      order: q.order,
      page: q.page,
      pageSize: q.page_size,
    });
    return c.json(ok({ ...result, items: result.items.map((t) => transcriptJson(t)) }));
  });

  api.post('/', async (c) => {
    const actor = await requireActor(c);
    const row = await createFromUpload(deps(c), actor, await readBody(c, uploadRunSchema));
    return c.json(ok(await fullJson(deps(c), row)));
  });

  api.post('/import', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, importSchema);
    if (body.file.size > CAPTIONS_MAX_BYTES) {
      throw new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, 'errors.api.tooLarge');
    }
    const row = await importCaptions(deps(c), actor, {
      captions: await body.file.text(),
      filename: stripControlChars(body.file.name),
      name: body.name,
      language: body.language,
      uploadId: body.upload_id,
      folderId: body.folder_id,
    });
    return c.json(ok(transcriptJson(row)));
  });

  // A link's media is downloaded by a job (modules/link-import): 202, the transcript is on its way.
  api.post('/from-link', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, linkRunSchema);
    const row = await importFromLink(c.get('deps').services.linkImport, actor, body);
    return c.json(ok(await fullJson(deps(c), row)), 202);
  });

  api.post('/move', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, moveSchema);
    return c.json(ok({ moved: await moveTranscripts(deps(c), actor, body.ids, body.folder_id) }));
  });

  api.post('/delete', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, deleteSchema);
    return c.json(ok({ deleted: await deleteTranscripts(deps(c), actor, body.ids) }));
  });

  api.get('/:id', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok(await fullJson(deps(c), await ownTranscript(deps(c), actor, idParam(c)))));
  });

  api.patch('/:id', async (c) => {
    const actor = await requireActor(c);
    const id = idParam(c);
    const body = await readBody(c, renameSchema);
    return c.json(ok(await fullJson(deps(c), await renameTranscript(deps(c), actor, id, body.name))));
  });

  api.patch('/:id/segments', async (c) => {
    const actor = await requireActor(c);
    const id = idParam(c);
    const { updated_at, ...edit } = await readBody(c, editRequestSchema);
    const row = await editSegments(deps(c), actor, id, edit, updated_at);
    return c.json(ok(await fullJson(deps(c), row)));
  });

  api.delete('/:id', async (c) => {
    const actor = await requireActor(c);
    await deleteTranscript(deps(c), actor, idParam(c));
    return c.json(ok(null));
  });

  api.post('/:id/retry', async (c) => {
    const actor = await requireActor(c);
    const id = idParam(c);
    // The body is optional: {detect_speech: false} transcribes everything again.
    const body = await readBody(c, retrySchema);
    const row = await retryRun(c.get('deps').services.linkImport, actor, id, body);
    return c.json(ok(await fullJson(deps(c), row)));
  });

  // Who spoke when, on a finished transcript: a job (202); the transcript's speaker_note follows it.
  api.post('/:id/speakers/identify', async (c) => {
    const actor = await requireActor(c);
    const id = idParam(c);
    const body = await readBody(c, identifySpeakersSchema);
    const row = await requestSpeakers(deps(c), c.get('deps').env, actor, id, body.speaker_count ?? null);
    return c.json(ok(transcriptJson(row)), 202);
  });

  api.post('/:id/cancel', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok(transcriptJson(await cancelTranscript(deps(c), actor, idParam(c)))));
  });

  api.get('/:id/media', async (c) => {
    const actor = await requireActor(c);
    // A player asks for many ranges: the row's small columns say where the media is.
    const row = await ownTranscriptSummary(deps(c), actor, idParam(c));
    return serveMedia(c, deps(c).storage, row);
  });

  // Live progress: a snapshot first, then status and segment events until the job ends; on a
  // finished transcript only its state (no segments) with a retry hint.
  api.get('/:id/events', async (c) => {
    const actor = await requireActor(c);
    const id = idParam(c);
    const d = deps(c);
    await ownTranscriptSummary(d, actor, id);
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      const aborted = new AbortController();
      stream.onAbort(() => aborted.abort());
      for await (const message of liveEvents(d, actor, id, aborted.signal)) await stream.writeSSE(message);
    });
  });

  return api;
}
