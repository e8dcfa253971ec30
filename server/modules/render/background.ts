import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ErrorCode, RenderCode } from '../../../common/error-codes';
import {
  RENDER_BACKGROUND_MAX_BYTES,
  RENDER_BACKGROUND_MAX_SIDE,
  RENDER_BACKGROUND_MIN_SIDE,
} from '../../../common/render-options';
import { spawnTied } from '../../process/tied-spawn';
import { ApiError } from '../errors';
import type { Actor } from '../workspaces/actor';
import { assertCan } from '../workspaces/access';
import type { RenderDeps } from './deps';

// A workspace's picture behind audio-only captioned videos (a podcast's cover, a logo). One per
// workspace, stored through the storage layer under the workspace's own key (not media/, which
// belongs to transcripts and the consistency sweep). What is stored is never the upload itself:
// ffprobe must find exactly one still picture of a known image codec within the size limits, and
// ffmpeg writes it again as a JPEG of at most STORED_SIDE pixels (no metadata, always decodable).

/** Codecs ffprobe names for the pictures we take (PNG, JPEG, WebP); GIF and the rest are refused. */
const IMAGE_CODECS = new Set(['png', 'mjpeg', 'webp']);
/** The longest side kept: a 1080p render never needs more, and a 1920 JPEG stays small. */
const STORED_SIDE = 1920;

export const backgroundKey = (workspaceId: string) => `workspaces/${workspaceId}/render-background.jpg`;

const invalid = () => new ApiError(RenderCode.BACKGROUND_INVALID, 'errors.render.backgroundInvalid');
export const backgroundMissing = () => new ApiError(RenderCode.NO_BACKGROUND, 'errors.render.noBackground');

export interface BackgroundInfo {
  width: number;
  height: number;
  size: number;
}

function run(bin: string, args: string[], timeoutMs = 30_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawnTied(bin, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (c: string) => {
      if (out.length < 20_000) out += c;
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve({ code: -1, out });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** The picture's size when the file is one still PNG, JPEG or WebP within the limits; else a 422. */
export async function probeImage(ffprobe: string, file: string): Promise<{ width: number; height: number }> {
  const { code, out } = await run(ffprobe, [
    '-v',
    'error',
    '-show_entries',
    'format=format_name:stream=codec_type,codec_name,width,height',
    '-of',
    'json',
    file,
  ]);
  if (code !== 0) throw invalid();
  let json: {
    format?: { format_name?: string };
    streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number }[];
  };
  try {
    json = JSON.parse(out) as typeof json;
  } catch {
    throw invalid();
  }
  const streams = json.streams ?? [];
  const s = streams[0];
  const format = json.format?.format_name ?? '';
  // One picture stream read by an image demuxer: a video or an animation named .png is refused.
  if (streams.length !== 1 || s?.codec_type !== 'video' || !IMAGE_CODECS.has(s.codec_name ?? '')) {
    throw invalid();
  }
  if (!/(_pipe|^image2)$/.test(format)) throw invalid();
  const { width = 0, height = 0 } = s;
  if (Math.min(width, height) < RENDER_BACKGROUND_MIN_SIDE) throw invalid();
  if (Math.max(width, height) > RENDER_BACKGROUND_MAX_SIDE) {
    throw new ApiError(RenderCode.BACKGROUND_TOO_BIG, 'errors.render.backgroundTooBig', {
      max_pixels: RENDER_BACKGROUND_MAX_SIDE,
    });
  }
  return { width, height };
}

/**
 * Replaces the current workspace's background picture (editors and up, like the glossary):
 * checked with ffprobe, written again as a JPEG by ffmpeg, stored.
 */
export async function setRenderBackground(
  deps: RenderDeps,
  actor: Actor,
  file: File,
): Promise<BackgroundInfo> {
  assertCan(actor.role, 'transcript.edit');
  if (file.size > RENDER_BACKGROUND_MAX_BYTES) {
    throw new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, 'errors.render.backgroundTooLarge', {
      max_mb: RENDER_BACKGROUND_MAX_BYTES / 1024 / 1024,
    });
  }
  const work = path.join(deps.tmpDir(), `background-${crypto.randomUUID()}`);
  await mkdir(work, { recursive: true });
  try {
    const input = path.join(work, 'upload');
    await writeFile(input, Buffer.from(await file.arrayBuffer()));
    await probeImage(deps.ffprobe, input);
    const output = path.join(work, 'background.jpg');
    const { code } = await run(deps.ffmpeg, [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-i',
      input,
      '-frames:v',
      '1',
      '-vf',
      `scale='min(${STORED_SIDE},iw)':'min(${STORED_SIDE},ih)':force_original_aspect_ratio=decrease`,
      '-q:v',
      '3',
      '-map_metadata',
      '-1',
      '-f',
      'image2',
      output,
    ]);
    if (code !== 0) throw invalid();
    const stored = await probeImage(deps.ffprobe, output);
    await deps.storage.putFile(output, backgroundKey(actor.workspace.id));
    return { ...stored, size: (await stat(output)).size };
  } finally {
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Whether the workspace has a background picture. */
export async function hasRenderBackground(deps: Pick<RenderDeps, 'storage'>, workspaceId: string) {
  return (await deps.storage.size(backgroundKey(workspaceId))) !== null;
}

/** The current workspace's picture, for the dialog to show (every member may see it). */
export async function renderBackgroundFile(
  deps: RenderDeps,
  actor: Actor,
): Promise<{ body: Readable; size: number }> {
  assertCan(actor.role, 'transcript.read');
  const key = backgroundKey(actor.workspace.id);
  const size = await deps.storage.size(key);
  if (size === null) throw backgroundMissing();
  return { body: await deps.storage.read(key), size };
}

export async function deleteRenderBackground(deps: RenderDeps, actor: Actor): Promise<void> {
  assertCan(actor.role, 'transcript.edit');
  await deps.storage.delete(backgroundKey(actor.workspace.id));
}
