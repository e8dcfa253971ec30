import { describe, expect, it } from 'vitest';
import { createProgressEstimator } from './progress';

describe('the whisper progress estimator', () => {
  it('moves with the chunks, between reports with the clock, never back, 100 only at the end', () => {
    const p = createProgressEstimator({ fileSec: 100, detectSpeech: false });
    expect(p.chunkStarted({ from: 0, to: 20, audioSec: 20, speed: null }, 0)).toBeNull();
    // Real time assumed for the first chunk: after 10 s, half of it.
    expect(p.tick(10_000)).toEqual({ percent: 10, remainingSec: null });
    // Never past 95 % of a chunk before it reports back.
    expect(p.tick(60_000)?.percent).toBe(19);
    expect(p.tick(120_000)).toBeNull();
    expect(p.chunkDone({ reached: 20, speed: 4, finished: false })).toEqual({
      percent: 20,
      remainingSec: 20,
    });
    expect(p.chunkStarted({ from: 20, to: 100, audioSec: 80, speed: 4 }, 200_000)).toBeNull();
    const mid = p.tick(210_000);
    expect(mid?.percent).toBeCloseTo(60, 0);
    expect(mid?.remainingSec).toBe(10);
    // A late report below what the clock showed does not move the bar back.
    expect(p.chunkDone({ reached: 40, speed: 4, finished: false })).toBeNull();
    expect(p.chunkDone({ reached: 100, speed: 4, finished: true })).toEqual({
      percent: 99.9,
      remainingSec: 0,
    });
    expect(p.finish()).toEqual({ percent: 100, remainingSec: 0 });
    expect(p.percent).toBe(100);
  });

  it('counts only the speech ahead when speech is detected first', () => {
    const p = createProgressEstimator({ fileSec: 100, detectSpeech: true });
    p.addRegions([
      { start: 0, end: 10 },
      { start: 40, end: 50 },
    ]);
    p.chunkStarted({ from: 0, to: 10, audioSec: 10, speed: null }, 0);
    // At 10 s: 10 s of known speech ahead, and the unanalysed half holds speech at the rate found so
    // far (all of the first 10 s): 10 + 50 → 60 s of audio at 2× → 30 s.
    expect(p.chunkDone({ reached: 10, speed: 2, finished: false })).toEqual({
      percent: 10,
      remainingSec: 30,
    });
  });
});
