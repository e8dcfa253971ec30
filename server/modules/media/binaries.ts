import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface MediaBinaries {
  ffmpeg: string;
  ffprobe: string;
}

const require = createRequire(import.meta.url);

/** The first executable `name` in the directories of PATH, or null. */
export function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

function fromPackage(pkg: string): string | null {
  try {
    const mod = require(pkg) as { path?: string };
    return mod.path ?? null;
  } catch {
    return null;
  }
}

/**
 * FFMPEG_PATH / FFPROBE_PATH when set, else the system binaries on PATH (usually newer and
 * with more codecs), else the binaries shipped by the @ffmpeg-installer packages.
 */
export function resolveMediaBinaries(
  env: { FFMPEG_PATH?: string; FFPROBE_PATH?: string } = {},
): MediaBinaries {
  const ffmpeg = env.FFMPEG_PATH ?? onPath('ffmpeg') ?? fromPackage('@ffmpeg-installer/ffmpeg') ?? 'ffmpeg';
  const ffprobe =
    env.FFPROBE_PATH ?? onPath('ffprobe') ?? fromPackage('@ffprobe-installer/ffprobe') ?? 'ffprobe';
  return { ffmpeg, ffprobe };
}
