import { describe, expect, it } from 'vitest';
import { createProgressEstimator, shareDone } from './progress';

describe('shareDone', () => {
  it('keeps step with the clock to 80 % at the expected time, then slows towards 95 % without reaching it', () => {
    expect(shareDone(0, 10)).toBe(0);
    expect(shareDone(5, 10)).toBeCloseTo(0.4);
    expect(shareDone(10, 10)).toBeCloseTo(0.8);
    expect(shareDone(20, 10)).toBeGreaterThan(shareDone(15, 10));
    expect(shareDone(1e6, 10)).toBeCloseTo(0.95);
  });
});

describe('the whisper progress estimator', () => {
  it('moves with the chunks, between reports with the clock, never back, 100 only at the end', () => {
    const p = createProgressEstimator({ fileSec: 100, detectSpeech: false });
    expect(p.chunkStarted({ from: 0, to: 20, audioSec: 20, speed: null }, 0)).toBeNull();
    // Real time assumed for the first chunk: after 10 s, 40 % of it (80 % at the expected time).
    expect(p.tick(10_000)).toEqual({ percent: 8, remainingSec: null });
    // Running late, the bar still moves, but never to the end of the chunk before it reports back.
    const late = p.tick(60_000)!.percent;
    expect(late).toBeGreaterThan(16);
    expect(p.tick(36_000_000)!.percent).toBeLessThanOrEqual(19);
    expect(p.chunkDone({ reached: 20, speed: 4, finished: false })).toEqual({
      percent: 20,
      remainingSec: 20,
    });
    expect(p.chunkStarted({ from: 20, to: 100, audioSec: 80, speed: 4 }, 200_000)).toBeNull();
    const onTime = p.tick(210_000)!;
    expect(onTime.percent).toBeCloseTo(52, 0);
    expect(onTime.remainingSec).toBe(12);
    // Twice as slow as expected: the time left follows the pace it shows now.
    const slow = p.tick(240_000)!;
    expect(slow.percent).toBeGreaterThan(52);
    expect(slow.remainingSec).toBe(Math.round(((100 - slow.percent) / 2) * 1));
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

  it('gives identifying speakers its share of the bar and of the time left', () => {
    const p = createProgressEstimator({ fileSec: 100, detectSpeech: false, diarize: true });
    p.chunkStarted({ from: 0, to: 100, audioSec: 100, speed: 10 }, 0);
    // The whole transcription is 85 % of the run; diarization is expected to take 10 s more.
    expect(p.chunkDone({ reached: 100, speed: 10, finished: true })).toEqual({
      percent: 85,
      remainingSec: 10,
    });
    expect(p.diarizing(0)).toBeNull();
    expect(p.tick(5_000)).toEqual({ percent: 91, remainingSec: 5 });
    // Longer than expected: still moving, and no claim about the time left.
    const late = p.tick(30_000)!;
    expect(late.percent).toBeGreaterThan(97);
    expect(late.percent).toBeLessThan(100);
    expect(late.remainingSec).toBeNull();
    expect(p.finish()).toEqual({ percent: 100, remainingSec: 0 });
  });
});
