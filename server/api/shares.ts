import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { EXPORT_FORMATS } from '../../common/ranks';
import { contentDisposition } from '../../common/exports';
import {
  SHARE_ID_RE,
  sharePath,
  type ShareLinkJson,
  type SharedTranscriptJson,
} from '../../common/transcript-types';
import { UUID_RE } from '../../common/validators';
import type { ShareLink } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { requireUser, uuidParam } from '../http/current-user';
import { transcriptNotFound } from '../modules/transcription/transcripts';
import { ok } from '../http/envelope';
import { serveMedia } from '../http/serve-media';
import { readBody, readQuery } from '../http/validate';
import { assertFormatAllowed, buildExport } from '../modules/exports/build';
import {
  countView,
  createShare,
  listShares,
  resolveShare,
  revokeShare,
  shareNotFound,
  type ResolvedShare,
} from '../modules/shares/shares';
import type { TranscriptionDeps } from '../modules/transcription/deps';

const createSchema = z
  .object({
    expires_at: z.iso.datetime({ offset: true, message: 'errors.shares.badExpiry' }).nullable().optional(),
    allow_media: z.boolean().default(false),
    allow_download: z.boolean().default(false),
  })
  .strict();
const exportSchema = z.object({
  format: z.enum(EXPORT_FORMATS, { message: 'errors.shares.badFormat' }),
  timestamps: z.enum(['0', '1', 'true', 'false']).optional(),
});

export function shareJson(s: ShareLink): ShareLinkJson {
  return {
    id: s.id,
    url: sharePath(s.transcriptId, s.id),
    expires_at: s.expiresAt?.toISOString() ?? null,
    allow_media: s.allowMedia,
    allow_download: s.allowDownload,
    created_at: s.createdAt.toISOString(),
    revoked_at: s.revokedAt?.toISOString() ?? null,
    views: s.views,
  };
}

const sharedBase = (transcriptId: string, shareId: string) =>
  `/self-api/v1/shares/${transcriptId}/${shareId}`;

/** What a link's visitors get: the text, and media / downloads only as the link allows. */
export function sharedTranscriptJson({
  share,
  transcript: t,
  exportFormats,
}: ResolvedShare): SharedTranscriptJson {
  const base = sharedBase(t.id, share.id);
  const media = share.allowMedia && !!t.mediaKey;
  return {
    id: t.id,
    share_id: share.id,
    name: t.name,
    duration: t.durationSec,
    language: t.detectedLanguage ?? (t.language === 'auto' ? null : t.language),
    segments: t.segments,
    speakers: t.speakers,
    has_video: media && t.hasVideo,
    media_url: media ? `${base}/media` : null,
    allow_download: share.allowDownload,
    export_url: share.allowDownload ? `${base}/export` : null,
    export_formats: share.allowDownload ? exportFormats : [],
  };
}

/** Resolves and counts one view of a link; what the public JSON call and the SSR page share. */
export async function openShare(
  deps: TranscriptionDeps,
  transcriptId: string,
  shareId: string,
): Promise<SharedTranscriptJson | null> {
  if (!UUID_RE.test(transcriptId) || !SHARE_ID_RE.test(shareId)) return null;
  const resolved = await resolveShare(deps, transcriptId, shareId, deps.now());
  if (!resolved) return null;
  await countView(deps, shareId);
  return sharedTranscriptJson({ ...resolved, share: { ...resolved.share, views: resolved.share.views + 1 } });
}

/**
 * Share links, under /self-api/v1: the owner's calls under /transcripts/:id/shares, and the
 * public ones (no login) under /shares/:id/:shareId.
 */
export function sharesApi() {
  const api = new Hono<AppEnv>();
  const deps = (c: Context<AppEnv>): TranscriptionDeps => c.get('deps').services.transcription;
  const transcriptId = (c: Context<AppEnv>) => uuidParam(c, 'id', transcriptNotFound);
  /** The link named by the path, or the one 404 for every kind of bad link. */
  const publicShare = async (c: Context<AppEnv>): Promise<ResolvedShare> => {
    const id = c.req.param('id') ?? '';
    const shareId = c.req.param('shareId') ?? '';
    // Never cached or indexed: a revoked link must stop working everywhere at once.
    c.header('Cache-Control', 'no-store');
    c.header('X-Robots-Tag', 'noindex');
    if (!UUID_RE.test(id) || !SHARE_ID_RE.test(shareId)) throw shareNotFound();
    const resolved = await resolveShare(deps(c), id, shareId, deps(c).now());
    if (!resolved) throw shareNotFound();
    return resolved;
  };

  api.post('/transcripts/:id/shares', async (c) => {
    const user = await requireUser(c);
    const id = transcriptId(c);
    const body = await readBody(c, createSchema);
    const share = await createShare(deps(c), user, id, {
      expiresAt: body.expires_at ? new Date(body.expires_at) : null,
      allowMedia: body.allow_media,
      allowDownload: body.allow_download,
    });
    return c.json(ok(shareJson(share)));
  });

  api.get('/transcripts/:id/shares', async (c) => {
    const user = await requireUser(c);
    const rows = await listShares(deps(c), user, transcriptId(c));
    return c.json(ok({ items: rows.map(shareJson) }));
  });

  api.delete('/transcripts/:id/shares/:shareId', async (c) => {
    const user = await requireUser(c);
    const id = transcriptId(c);
    const shareId = c.req.param('shareId');
    if (!SHARE_ID_RE.test(shareId)) throw shareNotFound();
    return c.json(ok(shareJson(await revokeShare(deps(c), user, id, shareId))));
  });

  api.get('/shares/:id/:shareId', async (c) => {
    const resolved = await publicShare(c);
    await countView(deps(c), resolved.share.id);
    return c.json(ok(sharedTranscriptJson(resolved)));
  });

  // Range requests of the player: not views.
  api.get('/shares/:id/:shareId/media', async (c) => {
    const { share, transcript } = await publicShare(c);
    if (!share.allowMedia || !transcript.mediaKey) throw shareNotFound();
    return serveMedia(c, deps(c).storage, transcript, {
      allowDownload: share.allowDownload,
      cacheControl: 'private, no-cache',
    });
  });

  api.get('/shares/:id/:shareId/export', async (c) => {
    const { share, transcript, owner } = await publicShare(c);
    if (!share.allowDownload) throw shareNotFound();
    const q = readQuery(c, exportSchema);
    // A link never exports in a format its owner's plan does not.
    assertFormatAllowed(owner, q.format);
    const file = await buildExport(
      {
        name: transcript.name,
        segments: transcript.segments,
        speakers: transcript.speakers,
        durationSec: transcript.durationSec,
        language:
          transcript.detectedLanguage ?? (transcript.language === 'auto' ? null : transcript.language),
      },
      q.format,
      {
        timestamps: q.timestamps === '1' || q.timestamps === 'true',
        productName: c.get('deps').env.APP_NAME,
      },
    );
    return new Response(file.body, {
      status: 200,
      headers: {
        'Content-Type': file.contentType,
        'Content-Disposition': contentDisposition(file.filename),
        'Cache-Control': 'no-store',
        'X-Robots-Tag': 'noindex',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });

  return api;
}
