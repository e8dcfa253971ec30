// Transcript downloads (spec §9): one transcript as a file, or several as one zip. Responses are
// the files themselves, not envelopes; errors are envelopes as everywhere else.

import { and, eq, inArray } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { EXPORT_CONTENT_TYPES, contentDisposition } from '../../common/exports';
import { ExportCode } from '../../common/error-codes';
import { UUID_RE } from '../../common/validators';
import type { AppEnv } from '../http/app-env';
import { requireUser, uuidParam } from '../http/current-user';
import { transcriptNotFound, ownTranscript } from '../modules/transcription/transcripts';
import { transcripts, type Transcript } from '../db/schema';
import { ApiError } from '../http/envelope';
import { readBody, readQuery } from '../http/validate';
import {
  EXPORT_FORMATS,
  assertFormatAllowed,
  buildExport,
  buildZip,
  type ExportSource,
} from '../modules/exports/build';

/** Most transcripts in one zip. */
export const MAX_EXPORT_IDS = 200;

const format = z.enum(EXPORT_FORMATS);
/** srt/vtt: subtitle-sized cues (default) or one cue per segment. */
const cues = z.enum(['subtitle', 'segment']).default('subtitle');
const exportQuery = z.object({
  format,
  timestamps: z
    .enum(['0', '1', 'false', 'true'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
  cues,
});
const bulkSchema = z
  .object({
    ids: z.array(z.string().regex(UUID_RE, 'validation.uuid')).min(1).max(MAX_EXPORT_IDS),
    format,
    timestamps: z.boolean().optional(),
    cues,
  })
  .strict();

const notReady = (ids: string[]) =>
  new ApiError(ExportCode.NOT_READY, 'errors.exports.notReady', 409, { ids });

/** The transcript as export input. Translations are English; otherwise the detected language. */
function exportSource(
  t: Pick<
    Transcript,
    'name' | 'segments' | 'speakers' | 'durationSec' | 'language' | 'detectedLanguage' | 'translate'
  >,
): ExportSource {
  const language = t.translate ? 'en' : (t.detectedLanguage ?? (t.language === 'auto' ? null : t.language));
  return { name: t.name, segments: t.segments, speakers: t.speakers, durationSec: t.durationSec, language };
}

/** A download: exact length, never cached by shared caches or kept by the browser. */
function fileResponse(
  filename: string,
  contentType: string,
  body: Uint8Array<ArrayBuffer> | string,
): Response {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return new Response(bytes, {
    status: 200,
    headers: {
      'Content-Type': contentType,
      'Content-Disposition': contentDisposition(filename),
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** Mounted at /self-api/v1: GET /transcripts/:id/export and POST /transcripts/export. */
export function exportsApi() {
  const api = new Hono<AppEnv>();
  const productName = (c: Context<AppEnv>): string => c.get('deps').env.APP_NAME;

  api.get('/transcripts/:id/export', async (c) => {
    const user = await requireUser(c);
    const id = uuidParam(c, 'id', transcriptNotFound);
    const q = readQuery(c, exportQuery);
    assertFormatAllowed(user, q.format);
    const row = await ownTranscript(c.get('deps').services.transcription, user, id);
    if (row.status !== 'done') throw notReady([row.id]);
    const file = await buildExport(exportSource(row), q.format, {
      timestamps: q.timestamps,
      cues: q.cues,
      productName: productName(c),
    });
    return fileResponse(file.filename, file.contentType, file.body);
  });

  api.post('/transcripts/export', async (c) => {
    const user = await requireUser(c);
    const body = await readBody(c, bulkSchema);
    assertFormatAllowed(user, body.format);
    const ids = [...new Set(body.ids)];
    const { db } = c.get('deps');
    const mine = and(eq(transcripts.userId, user.id), inArray(transcripts.id, ids));
    const found = await db
      .select({ id: transcripts.id, status: transcripts.status })
      .from(transcripts)
      .where(mine);
    // Someone else's ids look exactly like missing ones, and fail the whole request.
    if (found.length !== ids.length) throw transcriptNotFound();
    const pending = found.filter((t) => t.status !== 'done').map((t) => t.id);
    if (pending.length > 0) throw notReady(pending);

    // One transcript's segments in memory at a time; the entries keep the requested order.
    const entries = [];
    for (const id of ids) {
      const [row] = await db
        .select({
          name: transcripts.name,
          segments: transcripts.segments,
          speakers: transcripts.speakers,
          durationSec: transcripts.durationSec,
          language: transcripts.language,
          detectedLanguage: transcripts.detectedLanguage,
          translate: transcripts.translate,
        })
        .from(transcripts)
        .where(and(eq(transcripts.id, id), eq(transcripts.userId, user.id), eq(transcripts.status, 'done')));
      // Deleted or re-run since the check above.
      if (!row) throw transcriptNotFound();
      entries.push(
        await buildExport(exportSource(row), body.format, {
          timestamps: body.timestamps,
          cues: body.cues,
          productName: productName(c),
        }),
      );
    }
    const now = c.get('deps').services.transcription.now();
    const filename = `transcripts-${now.toISOString().slice(0, 10)}.zip`;
    return fileResponse(filename, EXPORT_CONTENT_TYPES.zip, buildZip(entries));
  });

  return api;
}
