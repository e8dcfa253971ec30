import { Readable } from 'node:stream';
import type { Context } from 'hono';
import type { Transcript } from '../db/schema';
import type { Storage } from '../modules/storage/storage';
import { TranscriptCode } from '../../common/error-codes';
import { ApiError } from '../modules/errors';
import { parseRange } from './range';
import { PLAYABLE_TYPES } from '../modules/media/probe';

export interface ServeMediaOptions {
  /** Whether `?download=1` may turn the response into an attachment. */
  allowDownload?: boolean;
  cacheControl?: string;
}

/** Media with HTTP range requests, so the player can seek without loading the whole file. */
export async function serveMedia(
  c: Context,
  storage: Storage,
  row: Pick<Transcript, 'mediaKey' | 'mediaType' | 'mediaName'>,
  opts: ServeMediaOptions = {},
): Promise<Response> {
  if (!row.mediaKey) throw new ApiError(TranscriptCode.NO_MEDIA, 'errors.transcripts.noMedia');
  const size = await storage.size(row.mediaKey);
  if (size === null) throw new ApiError(TranscriptCode.NO_MEDIA, 'errors.transcripts.noMedia');
  // Inline only as audio or video that ffprobe recognised; anything else (a failed upload of an
  // HTML page, a type stored before this rule) is a download of bytes, never a document on our
  // origin. The sandbox keeps even a mislabelled file from running script here.
  const playable = !!row.mediaType && PLAYABLE_TYPES.has(row.mediaType);
  // A link that may play but not download has nothing to offer for a file that cannot play.
  if (!playable && opts.allowDownload === false)
    throw new ApiError(TranscriptCode.NO_MEDIA, 'errors.transcripts.noMedia');
  const headers: Record<string, string> = {
    'Accept-Ranges': 'bytes',
    'Content-Type': playable ? row.mediaType! : 'application/octet-stream',
    'Cache-Control': opts.cacheControl ?? 'private, max-age=3600',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'",
  };
  const filename = row.mediaName ? `; filename*=UTF-8''${encodeURIComponent(row.mediaName)}` : '';
  if (!playable) headers['Content-Disposition'] = `attachment${filename}`;
  else if ((opts.allowDownload ?? true) && c.req.query('download') === '1' && row.mediaName) {
    headers['Content-Disposition'] = `attachment${filename}`;
  }
  const range = parseRange(c.req.header('range'), size);
  if (range === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${size}` } });
  }
  if (c.req.method === 'HEAD') {
    return new Response(null, { status: 200, headers: { ...headers, 'Content-Length': String(size) } });
  }
  const stream = await storage.read(row.mediaKey, range ?? undefined);
  const body = Readable.toWeb(stream) as ReadableStream<Uint8Array>;
  if (!range) {
    return new Response(body, { status: 200, headers: { ...headers, 'Content-Length': String(size) } });
  }
  return new Response(body, {
    status: 206,
    headers: {
      ...headers,
      'Content-Length': String(range.end - range.start + 1),
      'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
    },
  });
}
