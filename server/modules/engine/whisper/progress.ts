// How far a whisper run is, from the facts its child reports (the speech regions found, each
// chunk's start and end, the measured speed). The one place the engine's percentage and time left
// are worked out: the child only reports positions, the job only places the engine's share in its
// own bar (transcription/job-progress.ts). Pure: the clock is an argument.
import type { EngineProgress, SpeechRegion } from '../types';

export interface ProgressEstimator {
  /** Speech regions settled by the detector (original timeline, in order). */
  addRegions(regions: readonly SpeechRegion[]): void;
  /** A chunk starts decoding: the stretch it covers (original seconds) and the speed so far. */
  chunkStarted(
    chunk: { from: number; to: number; audioSec: number; speed: number | null },
    nowMs: number,
  ): EngineProgress | null;
  /** A chunk is done: the transcription reached `reached` (original seconds); `finished` = all of it. */
  chunkDone(done: { reached: number; speed: number; finished: boolean }): EngineProgress | null;
  /** Between reports the bar moves on at the measured speed (call it every second or so). */
  tick(nowMs: number): EngineProgress | null;
  /** Everything is in. */
  finish(): EngineProgress | null;
  readonly percent: number;
}

/** While a chunk decodes, the bar never passes this share of it before the chunk reports back. */
const CHUNK_SHARE_CAP = 0.95;
/** 100 is reserved for the very end, once every segment is in. */
const BEFORE_END = 99.9;

/**
 * `fileSec`: the audio's length; `detectSpeech`: only speech is transcribed, so the time left counts
 * the speech ahead (known regions, and for the part not analysed yet the share of speech so far).
 * Every method answers the new progress when the percentage rose, else null (non-decreasing).
 */
export function createProgressEstimator(opts: { fileSec: number; detectSpeech: boolean }): ProgressEstimator {
  const { fileSec, detectSpeech } = opts;
  const regions: SpeechRegion[] = [];
  let percent = 0;
  let speed: number | null = null;
  let chunk: { from: number; to: number; startedAt: number; expectSec: number | null } | null = null;

  /** Seconds of compute left at the measured speed. */
  const remaining = (p: number): number | null => {
    if (!speed || !fileSec) return null;
    const at = (p / 100) * fileSec;
    if (!detectSpeech) return Math.max(0, Math.round((fileSec - at) / speed));
    let before = 0;
    let after = 0;
    for (const r of regions) {
      before += Math.max(0, Math.min(r.end, at) - r.start);
      after += Math.max(0, r.end - Math.max(r.start, at));
    }
    const known = regions[regions.length - 1]?.end ?? 0;
    const ratio = at > 1 ? Math.min(1, before / at) : 1;
    return Math.max(0, Math.round((after + Math.max(0, fileSec - Math.max(known, at)) * ratio) / speed));
  };
  const set = (value: number): EngineProgress | null => {
    const p = Math.min(100, Math.max(0, Math.floor(value * 10) / 10));
    if (p <= percent) return null;
    percent = p;
    return { percent: p, remainingSec: p >= 100 ? 0 : remaining(p) };
  };
  const pct = (t: number) => (fileSec > 0 ? Math.min(BEFORE_END, (t / fileSec) * 100) : 0);

  return {
    get percent() {
      return percent;
    },
    addRegions(found) {
      regions.push(...found);
    },
    chunkStarted(c, nowMs) {
      speed = c.speed ?? speed;
      // Before the first chunk is measured, assume real time: the first chunk is short.
      const expectSec = c.audioSec / (c.speed ?? 1);
      chunk = { from: pct(c.from), to: pct(c.to), startedAt: nowMs, expectSec };
      return set(chunk.from);
    },
    chunkDone(d) {
      speed = d.speed;
      if (chunk) chunk.expectSec = null;
      return set(Math.min(BEFORE_END, d.finished ? 100 : pct(d.reached)));
    },
    tick(nowMs) {
      if (!chunk || chunk.expectSec === null) return null;
      const elapsed = (nowMs - chunk.startedAt) / 1000;
      const share = Math.min(CHUNK_SHARE_CAP, elapsed / Math.max(0.5, chunk.expectSec));
      return set(Math.min(BEFORE_END, chunk.from + (chunk.to - chunk.from) * share));
    },
    finish() {
      return set(100);
    },
  };
}
