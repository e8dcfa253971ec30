import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type MediaKind =
  | 'mp4'
  | 'mov'
  | 'mkv'
  | 'webm'
  | 'avi'
  | 'mp3'
  | 'wav'
  | 'm4a'
  | 'ogg'
  | 'flac'
  | 'video-no-audio'
  | 'corrupt'
  | 'text'
  | 'empty';

const AUDIO = ['-f', 'lavfi', '-i'];

/** Makes real media with ffmpeg's generators (tones and test patterns), or bad files. */
export function makeMedia(dir: string, kind: MediaKind, seconds = 3): string {
  mkdirSync(dir, { recursive: true });
  const tone = `sine=frequency=440:duration=${seconds}`;
  const video = `testsrc=size=160x120:rate=10:duration=${seconds}`;
  const out = (ext: string) => path.join(dir, `${kind}-${seconds}s.${ext}`);
  const ff = (file: string, args: string[]) => {
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, file]);
    return file;
  };
  switch (kind) {
    case 'mp4':
    case 'mov':
    case 'mkv':
    case 'avi':
      return ff(out(kind), [...AUDIO, video, ...AUDIO, tone, '-shortest', '-pix_fmt', 'yuv420p']);
    case 'webm':
      return ff(out('webm'), [
        ...AUDIO,
        video,
        ...AUDIO,
        tone,
        '-shortest',
        '-c:v',
        'libvpx',
        '-c:a',
        'libopus',
      ]);
    case 'mp3':
    case 'wav':
    case 'm4a':
    case 'flac':
      return ff(out(kind), [...AUDIO, tone]);
    case 'ogg':
      return ff(out('ogg'), [...AUDIO, tone, '-c:a', 'libvorbis']);
    case 'video-no-audio':
      return ff(out('mp4'), [...AUDIO, video, '-pix_fmt', 'yuv420p']);
    case 'corrupt': {
      // A real MP4 cut short: its index (written last) is missing, so nothing can read it.
      const whole = ff(path.join(dir, `whole-${seconds}s.mp4`), [
        ...AUDIO,
        video,
        ...AUDIO,
        tone,
        '-shortest',
        '-pix_fmt',
        'yuv420p',
      ]);
      const bytes = readFileSync(whole);
      const file = out('mp4');
      writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 3)));
      return file;
    }
    case 'text': {
      const file = out('mp4');
      writeFileSync(file, 'This is not a video, only text with a video extension.\n'.repeat(50));
      return file;
    }
    case 'empty': {
      const file = out('mp4');
      writeFileSync(file, '');
      return file;
    }
  }
}

/** Spoken English from espeak-ng when it is installed (the words are never asserted). */
export function makeSpeech(dir: string, text: string): string | null {
  if (spawnSync('espeak-ng', ['--version']).status !== 0) return null;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'speech.wav');
  execFileSync('espeak-ng', ['-w', file, text]);
  return file;
}

export const readBytes = (file: string) => readFileSync(file);
