// Speech probabilities (Silero VAD, one per 32 ms frame) → the stretches worth transcribing, and
// the map between the original timeline and the audio the engine is given (the regions one after
// the other). Pure, so it is tested without a model.

export interface Region {
  /** Seconds from the start of the media. */
  start: number;
  end: number;
}

export interface RegionOptions {
  /** A frame at or above this probability starts speech (Silero's default 0.5). */
  threshold?: number;
  /** Speech ends when the probability stays below this (hysteresis; default threshold − 0.15). */
  negThreshold?: number;
  /** Silence shorter than this does not end speech (Silero's default 0.1 s). */
  minSilenceSec?: number;
  /** Speech shorter than this is dropped (a click, a cough; default 0.25 s). */
  minSpeechSec?: number;
  /** Added before and after each region, so no word is clipped (default 0.4 s). */
  padSec?: number;
  /** Regions closer than this after padding become one (default 1 s). */
  mergeGapSec?: number;
  /** Longer regions are split at their longest pause, or their quietest frame (default 30 s). */
  maxRegionSec?: number;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
/** Stretches closer than this are one (before the shortest ones are dropped). */
const JOIN_GAP_SEC = 0.2;

/**
 * Raw speech stretches, as Silero's get_speech_timestamps finds them: speech starts at a frame
 * ≥ threshold and ends after minSilenceSec below negThreshold; shorter than minSpeechSec is dropped.
 */
export function rawSpeech(probs: ArrayLike<number>, frameSec: number, opts: RegionOptions = {}): Region[] {
  const threshold = opts.threshold ?? 0.5;
  const neg = opts.negThreshold ?? Math.max(0.01, threshold - 0.15);
  const minSilence = Math.max(1, Math.ceil((opts.minSilenceSec ?? 0.1) / frameSec - 1e-9));
  const minSpeech = (opts.minSpeechSec ?? 0.25) / frameSec;
  const out: Region[] = [];
  let start = -1;
  let silentSince = -1;
  for (let i = 0; i < probs.length; i++) {
    const p = probs[i]!;
    if (start < 0) {
      if (p >= threshold) start = i;
      continue;
    }
    if (p >= threshold) silentSince = -1;
    else if (p < neg) {
      if (silentSince < 0) silentSince = i;
      if (i + 1 - silentSince >= minSilence) {
        out.push({ start, end: silentSince });
        start = -1;
        silentSince = -1;
      }
    }
  }
  if (start >= 0) out.push({ start, end: probs.length });
  // A short word just before or after a breath ("The … quick") joins its neighbour before short
  // stretches are dropped as clicks.
  const joined: { start: number; end: number }[] = [];
  for (const r of out) {
    const prev = joined[joined.length - 1];
    if (prev && (r.start - prev.end) * frameSec < JOIN_GAP_SEC) prev.end = r.end;
    else joined.push({ ...r });
  }
  return joined
    .filter((r) => r.end - r.start >= minSpeech)
    .map((r) => ({ start: round3(r.start * frameSec), end: round3(r.end * frameSec) }));
}

/**
 * The regions given to the engine: raw speech padded, merged across short gaps and kept under
 * maxRegionSec (split at the longest pause between raw stretches, else at the quietest frame).
 */
export function speechRegions(
  probs: ArrayLike<number>,
  frameSec: number,
  durationSec: number,
  opts: RegionOptions = {},
): Region[] {
  const pad = opts.padSec ?? 0.4;
  const mergeGap = opts.mergeGapSec ?? 1;
  const maxLen = opts.maxRegionSec ?? 30;
  const raw = rawSpeech(probs, frameSec, opts).flatMap((r) => splitLong(r, probs, frameSec, maxLen));

  // Merge raw stretches into groups while the result stays short enough; pad each group.
  const out: Region[] = [];
  let group: Region | null = null;
  for (const r of raw) {
    if (group && r.start - group.end < mergeGap + 2 * pad && r.end - group.start <= maxLen) {
      group.end = r.end;
      continue;
    }
    if (group) out.push(group);
    group = { ...r };
  }
  if (group) out.push(group);
  const padded = out.map((r) => ({
    start: round3(Math.max(0, r.start - pad)),
    end: round3(Math.min(durationSec, r.end + pad)),
  }));
  // Padding may make neighbours touch: meet in the middle instead of overlapping.
  for (let i = 1; i < padded.length; i++) {
    const prev = padded[i - 1]!;
    const cur = padded[i]!;
    if (cur.start < prev.end) {
      const mid = round3((out[i - 1]!.end + out[i]!.start) / 2);
      prev.end = mid;
      cur.start = mid;
    }
  }
  return padded.filter((r) => r.end > r.start);
}

/**
 * The regions that later audio can no longer change (no speech can still join them), for a file
 * analysed up to `analysedSec`; all of them once the whole file is analysed.
 */
export function settledRegions(
  probs: ArrayLike<number>,
  frameSec: number,
  durationSec: number,
  analysedSec: number,
  opts: RegionOptions = {},
): Region[] {
  const all = speechRegions(probs, frameSec, durationSec, opts);
  if (analysedSec >= durationSec) return all;
  const margin = (opts.mergeGapSec ?? 1) + (opts.padSec ?? 0.4) + 2 * frameSec;
  return all.filter((r) => r.end + margin <= analysedSec);
}

/** A raw stretch longer than maxLen cut at its quietest frames (no pause long enough to end it). */
function splitLong(r: Region, probs: ArrayLike<number>, frameSec: number, maxLen: number): Region[] {
  const out: Region[] = [];
  let start = r.start;
  while (r.end - start > maxLen) {
    // Look for the quietest frame in the second half of the allowed length.
    const from = Math.round((start + maxLen / 2) / frameSec);
    const to = Math.round((start + maxLen) / frameSec);
    let cut = Math.min(from, probs.length - 1);
    for (let i = cut; i < Math.min(to, probs.length); i++) if (probs[i]! < probs[cut]!) cut = i;
    const at = round3(Math.max(cut * frameSec, start + frameSec));
    out.push({ start, end: at });
    start = at;
  }
  out.push({ start, end: r.end });
  return out;
}

/**
 * The engine hears the regions one after another ("speech time"); every time it reports is mapped
 * back to the original timeline here. A time on the seam between two regions belongs to the later
 * region when it starts something and to the earlier one when it ends something.
 */
export class SpeechTimeline {
  /** Speech-time start of each region. */
  private readonly offsets: number[] = [];
  private readonly list: Region[] = [];
  private total = 0;

  constructor(regions: readonly Region[] = []) {
    for (const r of regions) this.append(r);
  }

  /** Adds a region after the last one (speech detection settles regions in order). */
  append(r: Region): void {
    if (r.end <= r.start) return;
    this.offsets.push(this.total);
    this.list.push({ start: r.start, end: r.end });
    this.total += r.end - r.start;
  }

  get regions(): readonly Region[] {
    return this.list;
  }
  /** Seconds of speech (the length of the audio the engine hears). */
  get speechSec(): number {
    return this.total;
  }
  /** The original time where the last region ends (0 without regions). */
  get lastEnd(): number {
    return this.list[this.list.length - 1]?.end ?? 0;
  }

  /** The region (index) a speech time falls in. */
  private indexOf(t: number, edge: 'start' | 'end'): number {
    let lo = 0;
    let hi = this.list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      const off = this.offsets[mid]!;
      if (edge === 'start' ? off <= t : off < t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  toOriginal(t: number, edge: 'start' | 'end' = 'start'): number {
    if (this.list.length === 0) return t;
    const i = this.indexOf(Math.max(0, t), edge);
    const r = this.list[i]!;
    return round3(Math.min(r.end, r.start + Math.max(0, t - this.offsets[i]!)));
  }

  /** A [start, end] span in speech time on the original timeline, never across a gap. */
  spanToOriginal(start: number, end: number): Region {
    const s = this.toOriginal(start, 'start');
    const i = this.indexOf(Math.max(0, start), 'start');
    const e = Math.min(this.toOriginal(end, 'end'), this.list[i]?.end ?? Infinity);
    return { start: s, end: Math.max(s, e) };
  }

  /** Speech times where one region ends and the next begins: natural places to cut a chunk. */
  seams(): number[] {
    return this.offsets.slice(1);
  }

  /** The original sample ranges that make up [from, to) of speech time. */
  sampleRanges(from: number, to: number, sampleRate: number): [number, number][] {
    const out: [number, number][] = [];
    this.list.forEach((r, i) => {
      const off = this.offsets[i]!;
      const a = Math.max(from, off);
      const b = Math.min(to, off + (r.end - r.start));
      if (b <= a) return;
      out.push([Math.round((r.start + a - off) * sampleRate), Math.round((r.start + b - off) * sampleRate)]);
    });
    return out;
  }
}
