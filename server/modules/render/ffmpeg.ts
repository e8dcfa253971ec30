import { createRequire } from 'node:module';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { spawnTied } from '../../process/tied-spawn';
import { fitFilter, type Frame } from './geometry';
import type { RenderFit } from '../../../common/render-options';

// The ffmpeg command of a render. Every argument is ours: numbers, our own file paths (checked
// to hold only safe characters before they enter a filter graph) and fixed words; the caption
// text reaches ffmpeg only inside the subtitle file we wrote.

const require = createRequire(import.meta.url);

/**
 * The npm-shipped static ffmpeg: it has libass, fontconfig and x264 (a system ffmpeg may lack
 * any of them), so renders look the same on every machine.
 */
export function renderFfmpegPath(): string {
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

const SAFE_PATH = /^[A-Za-z0-9_./-]+$/;

export interface RenderCommand {
  /** The media file (an argument, never part of a filter). */
  input: string;
  hasVideo: boolean;
  /** Where the media part starts and how long it is. */
  offset: number;
  duration: number;
  frame: Frame;
  fit: RenderFit;
  /** Audio-only sources: '#rrggbb' of the generated background. */
  background: string;
  /** Audio-only sources: the workspace's picture (a local file), covering the frame, instead of the colour. */
  backgroundImage?: string | null;
  assFile: string;
  fontsDir: string;
  output: string;
  /** Bytes the output may reach (ffmpeg stops writing there). */
  maxBytes: number;
  /**
   * The source's audio is AAC already: copied as it is instead of encoded again (AAC encoding
   * was a tenth of a render's CPU time; bench/render.ts).
   */
  copyAudio?: boolean;
}

/** The arguments of one render (H.264 veryfast + AAC in MP4, captions burned in by libass). */
export function renderArgs(cmd: RenderCommand): string[] {
  for (const p of [cmd.assFile, cmd.fontsDir]) {
    if (!SAFE_PATH.test(p)) throw new Error(`render path has characters a filter graph cannot hold: ${p}`);
  }
  const { width: w, height: h } = cmd.frame;
  const subs = `ass=filename=${cmd.assFile}:fontsdir=${cmd.fontsDir}`;
  const seek = cmd.offset > 0 ? ['-ss', cmd.offset.toFixed(3)] : [];
  const length = ['-t', cmd.duration.toFixed(3)];
  const args = ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', ...seek, ...length, '-i', cmd.input];
  let graph: string;
  if (cmd.hasVideo) {
    graph = `[0:v]${fitFilter(cmd.frame, cmd.fit)},${subs}[v]`;
  } else {
    const colour = `0x${cmd.background
      .replace('#', '')
      .replace(/[^0-9a-fA-F]/g, '')
      .padEnd(6, '0')
      .slice(0, 6)}`;
    const waveHeight = Math.max(2, Math.round((h * 0.3) / 2) * 2);
    let ground = '[1:v]';
    if (cmd.backgroundImage) {
      // The picture as a still stream at 25 fps, scaled and cut to cover the frame (its path is an
      // input argument, never part of the filter graph).
      args.push('-loop', '1', '-framerate', '25', '-t', cmd.duration.toFixed(3), '-i', cmd.backgroundImage);
      ground = '[bg]';
    } else {
      args.push('-f', 'lavfi', '-i', `color=c=${colour}:s=${w}x${h}:r=25:d=${cmd.duration.toFixed(3)}`);
    }
    const cover = cmd.backgroundImage
      ? `[1:v]scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},setsar=1,format=yuv420p[bg];`
      : '';
    graph =
      cover +
      `[0:a]aformat=channel_layouts=mono,showwaves=s=${w}x${waveHeight}:mode=cline:rate=25:colors=0xFFFFFF,format=rgba,colorchannelmixer=aa=0.55[w];` +
      `${ground}[w]overlay=0:(H-h)/2:shortest=1,${subs}[v]`;
  }
  args.push(
    '-filter_complex',
    graph,
    '-map',
    '[v]',
    '-map',
    '0:a:0?',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-pix_fmt',
    'yuv420p',
    '-r',
    '30',
    ...(cmd.copyAudio ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '128k', '-ac', '2']),
    '-movflags',
    '+faststart',
    '-shortest',
    '-fs',
    String(cmd.maxBytes),
    '-progress',
    'pipe:1',
    '-nostats',
    cmd.output,
  );
  return args;
}

/**
 * A fontconfig setup with no font folders: libass then uses only the faces of fontsdir (ours),
 * never whatever the machine has, and fontconfig does not scan the system's fonts at start.
 */
export async function writeFontconfig(dir: string): Promise<string> {
  const file = path.join(dir, 'fonts.conf');
  await writeFile(
    file,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><cachedir>${path.join(dir, 'fc-cache')}</cachedir></fontconfig>\n`,
  );
  return file;
}

export interface RunResult {
  /** Peak resident memory of ffmpeg, in kB (Linux; 0 elsewhere). */
  peakRssKb: number;
}

export class RenderFailure extends Error {
  constructor(
    /** An errors.render.reasons.* key. */
    readonly reason: 'media' | 'timeout' | 'tooLarge' | 'canceled',
    detail: string,
  ) {
    super(detail);
    this.name = 'RenderFailure';
  }
}

/** Runs ffmpeg with progress (0–100) from its -progress output; a signal or the time limit kills it. */
export function runRender(
  ffmpeg: string,
  args: string[],
  opts: {
    duration: number;
    fontconfigFile: string;
    signal?: AbortSignal;
    timeoutMs: number;
    onProgress?: (percent: number) => void;
  },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawnTied(ffmpeg, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        FONTCONFIG_FILE: opts.fontconfigFile,
        HOME: path.dirname(opts.fontconfigFile),
      },
    });
    let peak = 0;
    let ended: RenderFailure | null = null;
    const stop = (failure: RenderFailure) => {
      ended ??= failure;
      child.kill('SIGKILL');
    };
    const sample = setInterval(() => {
      if (child.pid === undefined) return;
      readFile(`/proc/${child.pid}/status`, 'utf8')
        .then((s) => {
          const m = /VmHWM:\s+(\d+)/.exec(s);
          if (m) peak = Math.max(peak, Number(m[1]));
        })
        .catch(() => undefined);
    }, 250);
    const timer = setTimeout(
      () => stop(new RenderFailure('timeout', 'render took too long')),
      opts.timeoutMs,
    );
    const onAbort = () => stop(new RenderFailure('canceled', 'render canceled'));
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    let buffered = '';
    let lastPercent = -1;
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        // out_time_us (newer) / out_time_ms (older builds; microseconds despite the name).
        const m = /^out_time_(?:us|ms)=(\d+)/.exec(line);
        if (!m) continue;
        const percent = Math.min(99, Math.floor((Number(m[1]) / 1e6 / Math.max(0.001, opts.duration)) * 100));
        if (percent > lastPercent) {
          lastPercent = percent;
          opts.onProgress?.(percent);
        }
      }
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (stderr.length < 8000) stderr += chunk;
    });
    const finish = () => {
      clearInterval(sample);
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (err) => {
      finish();
      reject(new RenderFailure('media', `ffmpeg could not start: ${err.message}`));
    });
    child.on('close', (code) => {
      finish();
      if (ended) return reject(ended);
      if (code !== 0)
        return reject(new RenderFailure('media', `ffmpeg exited ${code}: ${stderr.trim().slice(-2000)}`));
      resolve({ peakRssKb: peak });
    });
  });
}
