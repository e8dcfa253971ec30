import type { RenderFit, RenderShape } from '../../../common/render-options';

// The output frame of a render: its size from the source's, the shape asked for and the plan's
// resolution cap, and the ffmpeg filter that fits the source into it. Sizes are even (H.264's
// 4:2:0 needs it) and the cap applies to the short side (720 → 1280×720, 720×1280, 720×720).

export interface Frame {
  width: number;
  height: number;
}

/** What an audio-only source is drawn on (before the cap). */
export const AUDIO_FRAME: Frame = { width: 1280, height: 720 };

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** The output size for a source of `source` size, `shape` and short side at most `cap`. */
export function outputFrame(source: Frame, shape: RenderShape, cap: number): Frame {
  const short = Math.min(source.width, source.height);
  if (shape === 'original') {
    const scale = Math.min(1, cap / short);
    return { width: even(source.width * scale), height: even(source.height * scale) };
  }
  const side = even(Math.min(cap, short));
  if (shape === '1:1') return { width: side, height: side };
  return { width: side, height: even((side * 16) / 9) };
}

/**
 * The filter (numbers only) that turns the source picture into `out`. Crop cuts the source to the
 * frame's shape first and scales only what is kept (scaling 16:9 up to cover 9:16 and then cutting
 * cost three times the pixels); pad scales to fit inside, then adds the bars.
 */
export function fitFilter(out: Frame, fit: RenderFit): string {
  const { width: w, height: h } = out;
  if (fit === 'crop')
    return `crop=w='trunc(min(iw,ih*${w}/${h})/2)*2':h='trunc(min(ih,iw*${h}/${w})/2)*2',scale=${w}:${h},setsar=1`;
  return `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1`;
}
