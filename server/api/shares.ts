import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { EXPORT_FORMATS } from '../../common/ranks';
import { SHARE_ID_RE } from '../../common/transcript-types';
import type { AppEnv } from '../http/app-env';
import { uuidParam } from '../http/current-user';
import { requireActor } from '../http/current-actor';
import { transcriptNotFound } from '../modules/transcription/ownership';
import { ok } from '../../common/envelope';
import { serveMedia } from '../http/serve-media';
import { readBody, readQuery } from '../http/validate';
import { fileResponse } from '../http/file-response';
import { shareJson } from '../modules/shares/payload';
import {
  createShare,
  exportShared,
  findShare,
  listShares,
  openShare,
  revokeShare,
  shareNotFound,
  updateShare,
  sharedMedia,
  type ResolvedShare,
} from '../modules/shares/shares';
import type { TranscriptionDeps } from '../modules/transcription/deps';

export const createSchema = z
  .object({
    expires_at: z.iso.datetime({ offset: true, message: 'errors.shares.badExpiry' }).nullable().optional(),
    allow_media: z.boolean().default(false),
    allow_download: z.boolean().default(false),
    /** Show the transcript's summary and chapters (when made) on the public page. */
    include_insights: z.boolean().default(false),
  })
  .strict();
/** What an existing link may change (its address, expiry and media stay as made). */
export const updateSchema = z.object({ include_insights: z.boolean() }).strict();
export const exportSchema = z.object({
  format: z.enum(EXPORT_FORMATS, { message: 'errors.shares.badFormat' }),
  timestamps: z.enum(['0', '1', 'true', 'false']).optional(),
  /** A finished translation's language (the share page's language switcher). */
  track: z.string().max(20).optional(),
});

/**
 * Share links, under /self-api/v1: the owner's calls under /transcripts/:id/shares, and the
 * public ones (no login) under /shares/:id/:shareId.
 */
export function sharesApi() {
  const api = new Hono<AppEnv>();
  const deps = (c: Context<AppEnv>): TranscriptionDeps => c.get('deps').services.transcription;
  const transcriptId = (c: Context<AppEnv>) => uuidParam(c, 'id', transcriptNotFound);
  /** Never cached or indexed: a revoked link must stop working everywhere at once. */
  const publicHeaders = (c: Context<AppEnv>) => {
    c.header('Cache-Control', 'no-store');
    c.header('X-Robots-Tag', 'noindex');
  };
  /** The link named by the path, or the one 404 for every kind of bad link. */
  const publicShare = async (c: Context<AppEnv>): Promise<ResolvedShare> => {
    publicHeaders(c);
    const resolved = await findShare(deps(c), c.req.param('id') ?? '', c.req.param('shareId') ?? '');
    if (!resolved) throw shareNotFound();
    return resolved;
  };

  api.post('/transcripts/:id/shares', async (c) => {
    const actor = await requireActor(c);
    const id = transcriptId(c);
    const body = await readBody(c, createSchema);
    const share = await createShare(deps(c), actor, id, {
      expiresAt: body.expires_at ? new Date(body.expires_at) : null,
      allowMedia: body.allow_media,
      allowDownload: body.allow_download,
      includeInsights: body.include_insights,
    });
    return c.json(ok(shareJson(share)));
  });

  api.get('/transcripts/:id/shares', async (c) => {
    const actor = await requireActor(c);
    const rows = await listShares(deps(c), actor, transcriptId(c));
    return c.json(ok({ items: rows.map(shareJson) }));
  });

  api.patch('/transcripts/:id/shares/:shareId', async (c) => {
    const actor = await requireActor(c);
    const id = transcriptId(c);
    const shareId = c.req.param('shareId');
    if (!SHARE_ID_RE.test(shareId)) throw shareNotFound();
    const body = await readBody(c, updateSchema);
    const share = await updateShare(deps(c), actor, id, shareId, { includeInsights: body.include_insights });
    return c.json(ok(shareJson(share)));
  });

  api.delete('/transcripts/:id/shares/:shareId', async (c) => {
    const actor = await requireActor(c);
    const id = transcriptId(c);
    const shareId = c.req.param('shareId');
    if (!SHARE_ID_RE.test(shareId)) throw shareNotFound();
    return c.json(ok(shareJson(await revokeShare(deps(c), actor, id, shareId))));
  });

  api.get('/shares/:id/:shareId', async (c) => {
    publicHeaders(c);
    const shared = await openShare(deps(c), c.req.param('id'), c.req.param('shareId'));
    if (!shared) throw shareNotFound();
    return c.json(ok(shared));
  });

  // Range requests of the player: not views.
  api.get('/shares/:id/:shareId/media', async (c) => {
    const resolved = await publicShare(c);
    return serveMedia(c, deps(c).storage, sharedMedia(resolved), {
      allowDownload: resolved.share.allowDownload,
      cacheControl: 'private, no-cache',
    });
  });

  api.get('/shares/:id/:shareId/export', async (c) => {
    const resolved = await publicShare(c);
    // Before the query is read: a link without downloads is the same 404 whatever is asked.
    if (!resolved.share.allowDownload) throw shareNotFound();
    const q = readQuery(c, exportSchema);
    const file = await exportShared(deps(c).db, resolved, q.format, {
      track: q.track || undefined,
      timestamps: q.timestamps === '1' || q.timestamps === 'true',
      productName: c.get('deps').env.APP_NAME,
    });
    return fileResponse(file, { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });
  });

  return api;
}
