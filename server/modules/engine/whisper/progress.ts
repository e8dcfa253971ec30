// How far a whisper run is, from the facts its child reports (the speech regions found, each
// chunk's start and end, the measured speed, diarization starting). The one place the engine's
// percentage and time left are worked out: the child only reports positions, the job only places
// the engine's share in its own bar (transcription/job-progress.ts). Pure: the clock is an argument.
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
  /** Speaker diarization starts (after the last chunk). */
  diarizing(nowMs: number): EngineProgress | null;
  /** Between reports the bar moves on at the measured speed (call it every second or so). */
  tick(nowMs: number): EngineProgress | null;
  /** Everything is in. */
  finish(): EngineProgress | null;
  readonly percent: number;
}

/** 100 is reserved for the very end, once every segment is in. */
const BEFORE_END = 99.9;
/**
 * Share of the run that speaker diarization takes when asked for (segmentation and an embedding
 * per speech turn, after the transcription), and the compute it is expected to need per second of
 * audio. Not measured on real weights yet (docs/decisions/0020-speakers.md): an estimate that
 * errs long, so the bar slows down rather than stalls.
 */
export const DIARIZE_SHARE = 0.15;
export const DIARIZE_SEC_PER_AUDIO_SEC = 0.1;

/**
 * How much of a stretch of work is done after `elapsed` of an expected `expected`: in step with
 * the clock up to 80 % at the expected time, then ever slower towards 95 % (never reached), so a
 * piece of work that runs late keeps moving instead of sitting at a wall.
 */
export function shareDone(elapsed: number, expected: number): number {
  const x = Math.max(0, elapsed) / Math.max(0.5, expected);
  return x <= 1 ? 0.8 * x : 0.8 + 0.15 * (1 - Math.exp(-(x - 1)));
}

/**
 * `fileSec`: the audio's length; `detectSpeech`: only speech is transcribed, so the time left counts
 * the speech ahead (known regions, and for the part not analysed yet the share of speech so far);
 * `diarize`: speakers are identified after the transcription (its share of the bar and time).
 * Every method answers the new progress when the percentage rose, else null (non-decreasing).
 */
export function createProgressEstimator(opts: {
  fileSec: number;
  detectSpeech: boolean;
  diarize?: boolean;
}): ProgressEstimator {
  const { fileSec, detectSpeech } = opts;
  const diarizeShare = opts.diarize ? DIARIZE_SHARE : 0;
  /** Where the transcription's part of the bar ends. */
  const top = 100 * (1 - diarizeShare);
  const diarizeSec = opts.diarize ? Math.max(1, fileSec * DIARIZE_SEC_PER_AUDIO_SEC) : 0;
  const regions: SpeechRegion[] = [];
  let percent = 0;
  let speed: number | null = null;
  let chunk: {
    from: number;
    to: number;
    audioSec: number;
    startedAt: number;
    expectSec: number | null;
  } | null = null;
  let diarizeStartedAt: number | null = null;

  /** Seconds of audio (original timeline) the transcription still has to get through, at `at`. */
  const audioLeft = (at: number): number => {
    if (!detectSpeech) return Math.max(0, fileSec - at);
    let before = 0;
    let after = 0;
    for (const r of regions) {
      before += Math.max(0, Math.min(r.end, at) - r.start);
      after += Math.max(0, r.end - Math.max(r.start, at));
    }
    const known = regions[regions.length - 1]?.end ?? 0;
    const ratio = at > 1 ? Math.min(1, before / at) : 1;
    return after + Math.max(0, fileSec - Math.max(known, at)) * ratio;
  };
  /** Seconds of compute left: the transcription at the speed it shows now, then diarization. */
  const remaining = (nowMs: number | null): number | null => {
    if (diarizeStartedAt !== null) {
      const elapsed = ((nowMs ?? diarizeStartedAt) - diarizeStartedAt) / 1000;
      // Running late: say nothing rather than "less than a minute" for minutes on end.
      return elapsed > diarizeSec ? null : Math.round(diarizeSec - elapsed);
    }
    if (!speed || !fileSec) return null;
    let pace = speed;
    if (chunk && chunk.expectSec !== null && nowMs !== null) {
      // A chunk taking longer than expected shows the real pace.
      const elapsed = (nowMs - chunk.startedAt) / 1000;
      if (elapsed > chunk.expectSec) pace = Math.min(pace, chunk.audioSec / elapsed);
    }
    const at = (Math.min(percent, top) / top) * fileSec;
    return Math.max(0, Math.round(audioLeft(at) / pace + diarizeSec));
  };
  const set = (value: number, nowMs: number | null): EngineProgress | null => {
    const p = Math.min(100, Math.max(0, Math.floor(value * 10) / 10));
    if (p <= percent) return null;
    percent = p;
    return { percent: p, remainingSec: p >= 100 ? 0 : remaining(nowMs) };
  };
  /** A position on the original timeline as a percentage of the bar. */
  const pct = (t: number) => (fileSec > 0 ? Math.min(BEFORE_END, (t / fileSec) * top) : 0);

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
      chunk = { from: pct(c.from), to: pct(c.to), audioSec: c.audioSec, startedAt: nowMs, expectSec };
      return set(chunk.from, nowMs);
    },
    chunkDone(d) {
      speed = d.speed;
      if (chunk) chunk.expectSec = null;
      return set(Math.min(BEFORE_END, d.finished ? top : pct(d.reached)), null);
    },
    diarizing(nowMs) {
      diarizeStartedAt = nowMs;
      chunk = null;
      return set(Math.min(BEFORE_END, top), nowMs);
    },
    tick(nowMs) {
      if (diarizeStartedAt !== null) {
        const share = shareDone((nowMs - diarizeStartedAt) / 1000, diarizeSec);
        return set(Math.min(BEFORE_END, top + (100 - top) * share), nowMs);
      }
      if (!chunk || chunk.expectSec === null) return null;
      const share = shareDone((nowMs - chunk.startedAt) / 1000, chunk.expectSec);
      return set(Math.min(BEFORE_END, chunk.from + (chunk.to - chunk.from) * share), nowMs);
    },
    finish() {
      return set(100, null);
    },
  };
}
