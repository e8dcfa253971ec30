// Transcript downloads: one transcript as a file, or several as one zip. Responses are the files
// themselves, not envelopes; errors are envelopes as everywhere else.

import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { EXPORT_SKIPPED_HEADER } from '../../common/exports';
import { UUID_RE } from '../../common/validators';
import type { AppEnv } from '../http/app-env';
import { uuidParam } from '../http/current-user';
import { requireActor } from '../http/current-actor';
import { fileResponse } from '../http/file-response';
import { readBody, readQuery } from '../http/validate';
import { EXPORT_FORMATS } from '../modules/exports/build';
import { exportTranscript, exportTranscripts } from '../modules/exports/transcripts';
import { transcriptNotFound } from '../modules/transcription/ownership';

/** Most transcripts in one zip. */
export const MAX_EXPORT_IDS = 200;

const format = z.enum(EXPORT_FORMATS);
/** srt/vtt: subtitle-sized cues (default) or one cue per segment. */
const cues = z.enum(['subtitle', 'segment']).default('subtitle');
export const exportQuery = z.object({
  format,
  timestamps: z
    .enum(['0', '1', 'false', 'true'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
  cues,
});
export const bulkSchema = z
  .object({
    ids: z.array(z.string().regex(UUID_RE, 'validation.uuid')).min(1).max(MAX_EXPORT_IDS),
    format,
    timestamps: z.boolean().optional(),
    cues,
  })
  .strict();

/** Never cached by shared caches or kept by the browser. */
const PRIVATE = { 'Cache-Control': 'private, no-store' };

/** Mounted at /self-api/v1: GET /transcripts/:id/export and POST /transcripts/export. */
export function exportsApi() {
  const api = new Hono<AppEnv>();
  const deps = (c: Context<AppEnv>) => c.get('deps').services.transcription;
  const productName = (c: Context<AppEnv>): string => c.get('deps').env.APP_NAME;

  api.get('/transcripts/:id/export', async (c) => {
    const actor = await requireActor(c);
    const id = uuidParam(c, 'id', transcriptNotFound);
    const q = readQuery(c, exportQuery);
    const file = await exportTranscript(deps(c), actor, id, q.format, {
      timestamps: q.timestamps,
      cues: q.cues,
      productName: productName(c),
    });
    return fileResponse(file, PRIVATE);
  });

  api.post('/transcripts/export', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, bulkSchema);
    const zip = await exportTranscripts(deps(c), actor, body.ids, body.format, {
      timestamps: body.timestamps,
      cues: body.cues,
      productName: productName(c),
    });
    // Unfinished transcripts are left out of the zip; their ids say which (empty when none).
    return fileResponse(zip, { ...PRIVATE, [EXPORT_SKIPPED_HEADER]: zip.skipped.join(',') });
  });

  return api;
}
