import { spawnTied } from '../../process/tied-spawn';
import type { Frame } from './geometry';

/** The displayed size of a media file's first video stream (rotation applied), or null for audio only. */
export function probeFrame(ffprobe: string, file: string): Promise<Frame | null> {
  return new Promise((resolve, reject) => {
    const child = spawnTied(
      ffprobe,
      [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-show_entries',
        'stream=width,height:stream_tags=rotate:stream_disposition=attached_pic',
        '-of',
        'json',
        file,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (c: string) => (out += c));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', () => {
      clearTimeout(timer);
      try {
        const json = JSON.parse(out || '{}') as {
          streams?: {
            width?: number;
            height?: number;
            tags?: { rotate?: string };
            disposition?: { attached_pic?: number };
          }[];
        };
        const s = json.streams?.[0];
        // A cover picture in an audio file is not a video to caption.
        if (!s?.width || !s.height || s.disposition?.attached_pic) return resolve(null);
        const quarter = Math.abs(Number(s.tags?.rotate ?? 0)) % 180 === 90;
        resolve(quarter ? { width: s.height, height: s.width } : { width: s.width, height: s.height });
      } catch {
        resolve(null);
      }
    });
  });
}

/** The codec of a media file's first audio stream ('aac', 'opus' …), or null when it has none. */
export function probeAudioCodec(ffprobe: string, file: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawnTied(
      ffprobe,
      ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=codec_name', '-of', 'json', file],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (c: string) => (out += c));
    child.on('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
    child.on('close', () => {
      clearTimeout(timer);
      try {
        const json = JSON.parse(out || '{}') as { streams?: { codec_name?: string }[] };
        resolve(json.streams?.[0]?.codec_name ?? null);
      } catch {
        resolve(null);
      }
    });
  });
}
