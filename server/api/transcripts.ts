import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { isTranscriptionLanguage } from '../../common/whisper-languages';
import type { Transcript } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { requireUser, uuidParam } from '../http/current-user';
import {
  transcriptNotFound,
  cancelTranscript,
  createFromUpload,
  deleteTranscript,
  deleteTranscripts,
  editSegments,
  importCaptions,
  listTranscripts,
  moveTranscripts,
  ownTranscript,
  queuePosition,
  renameTranscript,
  retryTranscript,
} from '../modules/transcription/transcripts';
import { ErrorCode } from '../../common/error-codes';
import { ApiError, ok } from '../http/envelope';
import { readBody, readQuery } from '../http/validate';
import type { TranscriptEvent } from '../modules/jobs/events';
import type { TranscriptionDeps } from '../modules/transcription/deps';
import { serveMedia } from '../http/serve-media';
import type { summaryColumns } from '../modules/transcription/transcripts';
import { UUID_RE } from '../../common/validators';
import { stripControlChars, textField } from '../../common/text';
import { MAX_FIND_LENGTH } from '../../common/find-replace';
import type { TranscriptJson } from '../../common/transcript-types';

const uuid = z.string().regex(UUID_RE, 'validation.uuid');
const language = z.string().refine(isTranscriptionLanguage, 'validation.language');
const name = textField({ min: 1, max: 200, maxMessage: 'validation.nameMax' });
const word = z.object({
  start: z.number().finite().min(0),
  end: z.number().finite().min(0),
  text: textField({ max: 200 }),
});
const segment = z.object({
  start: z.number().finite().min(0),
  end: z.number().finite().min(0),
  text: textField({ max: 5000, multiline: true }),
  words: z.array(word).max(2000).optional(),
});

const listSchema = z.object({
  folder_id: uuid.optional(),
  root: z.enum(['1', 'true']).optional(),
  q: textField({ max: 200 }).optional(),
  sort: z.enum(['created_at', 'name', 'duration']).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
const createSchema = z
  .object({
    upload_id: z.string().min(1).max(64),
    name: name.optional(),
    language: language.default('auto'),
    translate: z.boolean().default(false),
    folder_id: uuid.nullable().optional(),
    /** Off: transcribe the whole audio, silence included (speech is detected first by default). */
    detect_speech: z.boolean().default(true),
  })
  .strict();
const retrySchema = z.object({ detect_speech: z.boolean().optional() }).strict();
const importSchema = z.object({
  file: z.instanceof(File, { message: 'validation.required' }),
  upload_id: z.string().min(1).max(64).optional(),
  name: name.optional(),
  language: z
    .string()
    .refine((v) => v !== 'auto' && isTranscriptionLanguage(v), 'validation.language')
    .optional(),
  folder_id: uuid.optional(),
});
const renameSchema = z.object({ name }).strict();
const editSchema = z.intersection(
  z.discriminatedUnion('op', [
    z.object({ op: z.literal('replace'), segments: z.array(segment).max(20_000) }),
    z.object({
      op: z.literal('text'),
      index: z.number().int().min(0),
      text: textField({ max: 5000, multiline: true }),
    }),
    z.object({ op: z.literal('split'), index: z.number().int().min(0), offset: z.number().int().min(1) }),
    z.object({ op: z.literal('merge'), index: z.number().int().min(0) }),
    z.object({
      op: z.literal('find_replace'),
      // Not trimmed: spaces are part of what people find and replace.
      find: textField({ min: 1, max: MAX_FIND_LENGTH, multiline: true }),
      replace: textField({ max: MAX_FIND_LENGTH, multiline: true }),
      index: z.number().int().min(0).optional(),
    }),
    z.object({
      op: z.literal('shift'),
      delta: z.number().finite().min(-86_400).max(86_400),
      from: z.number().int().min(0).optional(),
    }),
  ]),
  z.object({ updated_at: z.string().max(40).optional() }),
);
const moveSchema = z.object({ ids: z.array(uuid).min(1).max(500), folder_id: uuid.nullable() }).strict();

const CAPTIONS_MAX_BYTES = 10 * 1024 * 1024;

type Summary = Pick<Transcript, keyof typeof summaryColumns>;

/** The API shape of a transcript (snake_case, like the rest of the API). */
export function transcriptJson(
  t: Summary & { segments?: Transcript['segments']; speechRegions?: Transcript['speechRegions'] },
  extra: { queuePosition?: number | null } = {},
): TranscriptJson {
  return {
    id: t.id,
    name: t.name,
    folder_id: t.folderId,
    source: t.source,
    status: t.status,
    progress: t.progress,
    language: t.language,
    detected_language: t.detectedLanguage,
    translate: t.translate,
    duration: t.durationSec,
    media: t.mediaKey
      ? {
          name: t.mediaName,
          type: t.mediaType,
          size: t.mediaSize,
          has_video: t.hasVideo,
          url: `/self-api/v1/transcripts/${t.id}/media`,
        }
      : null,
    error: t.errorCode ? { code: t.errorCode, message: `errors.media.${t.errorCode}` } : null,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
    completed_at: t.completedAt?.toISOString() ?? null,
    stage: t.status === 'queued' || t.status === 'processing' ? (t.stage ?? null) : null,
    remaining_sec: t.status === 'processing' ? (t.remainingSec ?? null) : null,
    detect_speech: t.detectSpeech,
    ...(extra.queuePosition !== undefined ? { queue_position: extra.queuePosition } : {}),
    ...(t.speechRegions !== undefined ? { speech_regions: t.speechRegions } : {}),
    ...(t.segments ? { segments: t.segments } : {}),
  };
}

/** A single transcript with what only single reads carry (the queue position while it waits). */
async function fullJson(d: TranscriptionDeps, row: Transcript): Promise<TranscriptJson> {
  return transcriptJson(row, { queuePosition: await queuePosition(d, row) });
}

const TERMINAL = new Set(['done', 'failed', 'canceled']);

/** /self-api/v1/transcripts: every call checks that the transcript is the caller's. */
export function transcriptsApi() {
  const api = new Hono<AppEnv>();
  const deps = (c: Context<AppEnv>): TranscriptionDeps => c.get('deps').services.transcription;
  const idParam = (c: Context<AppEnv>) => uuidParam(c, 'id', transcriptNotFound);

  api.get('/', async (c) => {
    const user = await requireUser(c);
    const q = readQuery(c, listSchema);
    const result = await listTranscripts(deps(c), user, {
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
    const user = await requireUser(c);
    const body = await readBody(c, createSchema);
    const row = await createFromUpload(deps(c), user, {
      uploadId: body.upload_id,
      name: body.name,
      language: body.language,
      translate: body.translate,
      folderId: body.folder_id,
      detectSpeech: body.detect_speech,
    });
    return c.json(ok(await fullJson(deps(c), row)));
  });

  api.post('/import', async (c) => {
    const user = await requireUser(c);
    const body = await readBody(c, importSchema);
    if (body.file.size > CAPTIONS_MAX_BYTES) {
      throw new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, 'errors.api.tooLarge', 413);
    }
    const row = await importCaptions(deps(c), user, {
      captions: await body.file.text(),
      filename: stripControlChars(body.file.name),
      name: body.name,
      language: body.language,
      uploadId: body.upload_id,
      folderId: body.folder_id,
    });
    return c.json(ok(transcriptJson(row)));
  });

  api.post('/move', async (c) => {
    const user = await requireUser(c);
    const body = await readBody(c, moveSchema);
    return c.json(ok({ moved: await moveTranscripts(deps(c), user, body.ids, body.folder_id) }));
  });

  api.post('/delete', async (c) => {
    const user = await requireUser(c);
    const body = await readBody(c, z.object({ ids: z.array(uuid).min(1).max(500) }).strict());
    return c.json(ok({ deleted: await deleteTranscripts(deps(c), user, body.ids) }));
  });

  api.get('/:id', async (c) => {
    const user = await requireUser(c);
    return c.json(ok(await fullJson(deps(c), await ownTranscript(deps(c), user, idParam(c)))));
  });

  api.patch('/:id', async (c) => {
    const user = await requireUser(c);
    const id = idParam(c);
    const body = await readBody(c, renameSchema);
    return c.json(ok(transcriptJson(await renameTranscript(deps(c), user, id, body.name))));
  });

  api.patch('/:id/segments', async (c) => {
    const user = await requireUser(c);
    const id = idParam(c);
    const { updated_at, ...edit } = await readBody(c, editSchema);
    const row = await editSegments(deps(c), user, id, edit, updated_at);
    return c.json(ok(transcriptJson(row)));
  });

  api.delete('/:id', async (c) => {
    const user = await requireUser(c);
    await deleteTranscript(deps(c), user, idParam(c));
    return c.json(ok(null));
  });

  api.post('/:id/retry', async (c) => {
    const user = await requireUser(c);
    const id = idParam(c);
    // The body is optional: {detect_speech: false} transcribes everything again.
    const body = await readBody(c, retrySchema);
    return c.json(ok(await fullJson(deps(c), await retryTranscript(deps(c), user, id, body.detect_speech))));
  });

  api.post('/:id/cancel', async (c) => {
    const user = await requireUser(c);
    return c.json(ok(transcriptJson(await cancelTranscript(deps(c), user, idParam(c)))));
  });

  api.get('/:id/media', async (c) => {
    const user = await requireUser(c);
    const row = await ownTranscript(deps(c), user, idParam(c));
    return serveMedia(c, deps(c).storage, row);
  });

  // Live progress: a snapshot first, then status and segment events until the job ends.
  api.get('/:id/events', async (c) => {
    const user = await requireUser(c);
    const id = idParam(c);
    const d = deps(c);
    await ownTranscript(d, user, id);
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      const pending: TranscriptEvent[] = [];
      let wake: (() => void) | null = null;
      let closed = false;
      const unsubscribe = d.events.subscribe(id, (event) => {
        pending.push(event);
        wake?.();
      });
      stream.onAbort(() => {
        closed = true;
        wake?.();
      });
      try {
        const snapshot = await ownTranscript(d, user, id);
        let sent = snapshot.segments.length;
        let status = snapshot.status;
        let position = await queuePosition(d, snapshot);
        let quiet = 0;
        await stream.writeSSE({
          event: 'snapshot',
          data: JSON.stringify(transcriptJson(snapshot, { queuePosition: position })),
        });
        if (TERMINAL.has(snapshot.status)) return;
        while (!closed) {
          if (pending.length === 0) {
            // While the job waits, the files ahead of it finish: tell the page every few seconds.
            await new Promise<void>((resolve) => {
              wake = resolve;
              setTimeout(resolve, status === 'queued' ? 3_000 : 15_000);
            });
            wake = null;
            if (pending.length > 0 || closed) continue;
            if (status === 'queued') {
              const row = await ownTranscript(d, user, id).catch(() => null);
              const next = row ? await queuePosition(d, row) : null;
              if (row?.status === 'queued' && next !== position) {
                position = next;
                await stream.writeSSE({
                  event: 'status',
                  data: JSON.stringify({
                    type: 'status',
                    status: 'queued',
                    progress: row.progress,
                    stage: row.stage,
                    queuePosition: next,
                  }),
                });
                continue;
              }
            }
            if (status !== 'queued' || ++quiet % 5 === 0)
              await stream.writeSSE({ event: 'ping', data: '{}' });
            continue;
          }
          const event = pending.shift()!;
          if (event.type === 'segment') {
            if (event.index < sent) continue;
            sent = event.index + 1;
            await stream.writeSSE({ event: 'segment', data: JSON.stringify(event) });
          } else if (event.type === 'status') {
            if (TERMINAL.has(event.status)) {
              const final = await ownTranscript(d, user, id).catch(() => null);
              if (final)
                await stream.writeSSE({ event: 'snapshot', data: JSON.stringify(transcriptJson(final)) });
              return;
            }
            status = event.status;
            await stream.writeSSE({ event: 'status', data: JSON.stringify(event) });
          }
        }
      } finally {
        unsubscribe();
      }
    });
  });

  return api;
}
