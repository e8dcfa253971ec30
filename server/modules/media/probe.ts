import { spawnTied } from '../../process/tied-spawn';
import { stat } from 'node:fs/promises';
import { MediaError } from './media-error';

export interface MediaInfo {
  durationSec: number;
  hasAudio: boolean;
  hasVideo: boolean;
  /** ffprobe's format_name, e.g. 'mov,mp4,m4a,3gp,3g2,mj2'. */
  format: string;
  /** What to send as Content-Type when the file is played back. */
  mimeType: string;
}

interface ProbeJson {
  format?: { format_name?: string; duration?: string };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    duration?: string;
    disposition?: { attached_pic?: number };
  }[];
}

const PROBE_TIMEOUT_MS = 30_000;

function run(bin: string, args: string[], timeoutMs: number): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnTied(bin, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, out: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

/** Every Content-Type mimeFor can give: the only ones media is ever served inline with. */
export const PLAYABLE_TYPES: ReadonlySet<string> = new Set([
  'video/mp4',
  'audio/mp4',
  'video/webm',
  'audio/webm',
  'video/x-matroska',
  'audio/x-matroska',
  'audio/mpeg',
  'audio/wav',
  'audio/flac',
  'video/ogg',
  'audio/ogg',
  'video/x-msvideo',
  'audio/aac',
  'video/mp2t',
  'video/octet-stream',
  'audio/octet-stream',
]);

function mimeFor(format: string, hasVideo: boolean, codecs: string[]): string {
  const f = format.split(',');
  if (f.includes('mp4') || f.includes('mov')) return hasVideo ? 'video/mp4' : 'audio/mp4';
  if (f.includes('webm') || f.includes('matroska')) {
    const webm = codecs.every((c) => ['vp8', 'vp9', 'av1', 'opus', 'vorbis'].includes(c));
    if (webm) return hasVideo ? 'video/webm' : 'audio/webm';
    return hasVideo ? 'video/x-matroska' : 'audio/x-matroska';
  }
  if (f.includes('mp3')) return 'audio/mpeg';
  if (f.includes('wav')) return 'audio/wav';
  if (f.includes('flac')) return 'audio/flac';
  if (f.includes('ogg')) return hasVideo ? 'video/ogg' : 'audio/ogg';
  if (f.includes('avi')) return 'video/x-msvideo';
  if (f.includes('aac')) return 'audio/aac';
  if (f.includes('mpegts')) return 'video/mp2t';
  return hasVideo ? 'video/octet-stream' : 'audio/octet-stream';
}

/**
 * Proves a file is media by asking ffprobe, never by its name. Cover art in audio files
 * (attached pictures) does not count as video.
 */
export async function probeMedia(ffprobe: string, file: string): Promise<MediaInfo> {
  const info = await stat(file);
  if (info.size === 0) throw new MediaError('empty_file', 'The file is empty');
  const { code, out } = await run(
    ffprobe,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
    PROBE_TIMEOUT_MS,
  );
  let json: ProbeJson = {};
  try {
    json = JSON.parse(out || '{}') as ProbeJson;
  } catch {
    json = {};
  }
  const streams = json.streams ?? [];
  if (code !== 0 || !json.format || streams.length === 0) {
    throw new MediaError('not_media', 'ffprobe does not recognise this file as audio or video');
  }
  const audio = streams.filter((s) => s.codec_type === 'audio');
  const video = streams.filter((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (audio.length === 0) throw new MediaError('no_audio', 'The file has no audio track');
  const durations = [json.format.duration, ...audio.map((s) => s.duration)]
    .map((d) => Number(d))
    .filter((d) => Number.isFinite(d) && d > 0);
  const durationSec = durations.length ? Math.max(...durations) : 0;
  if (durationSec <= 0) throw new MediaError('not_media', 'The media has no measurable duration');
  const format = json.format.format_name ?? '';
  const codecs = [...audio, ...video].map((s) => s.codec_name ?? '');
  return {
    durationSec,
    hasAudio: true,
    hasVideo: video.length > 0,
    format,
    mimeType: mimeFor(format, video.length > 0, codecs),
  };
}
