import { describe, expect, it } from 'vitest';
import { rawSpeech, SpeechTimeline, speechRegions } from './regions';

const F = 0.032;
/** Probabilities from a pattern: each character one frame, '#' speech, '.' silence, '-' in between. */
const probs = (pattern: string) =>
  Float32Array.from(pattern, (c) => (c === '#' ? 0.9 : c === '-' ? 0.4 : 0.05));

describe('rawSpeech', () => {
  it('uses hysteresis and drops short blips', () => {
    expect(rawSpeech(probs('....##########-##########.....'), F)).toEqual([{ start: 0.128, end: 0.8 }]);
    expect(rawSpeech(probs('....###.......'), F)).toEqual([]);
  });
});

describe('speechRegions', () => {
  it('pads, merges close stretches and meets in the middle', () => {
    const p = probs(
      `${'.'.repeat(100)}${'#'.repeat(20)}${'.'.repeat(40)}${'#'.repeat(20)}${'.'.repeat(300)}${'#'.repeat(20)}${'.'.repeat(100)}`,
    );
    const regions = speechRegions(p, F, p.length * F);
    expect(regions).toEqual([
      { start: 2.8, end: 6.16 },
      { start: 14.96, end: 16.4 },
    ]);
  });
  it('keeps regions under the maximum length, splitting at the quietest frame', () => {
    const pattern = Array.from({ length: 2000 }, (_, i) => (i % 200 === 150 ? '-' : '#')).join('');
    const regions = speechRegions(probs(pattern), F, 2000 * F, { maxRegionSec: 20 });
    for (const r of regions) expect(r.end - r.start).toBeLessThanOrEqual(20.8 + 1e-9);
    expect(regions[0]!.start).toBe(0);
    expect(regions[regions.length - 1]!.end).toBe(64);
  });
});

describe('SpeechTimeline', () => {
  const t = new SpeechTimeline([
    { start: 10, end: 12 },
    { start: 20, end: 25 },
  ]);
  it('maps speech time to the original time, seams by their role', () => {
    expect(t.speechSec).toBe(7);
    expect(t.toOriginal(0)).toBe(10);
    expect(t.toOriginal(1.5)).toBe(11.5);
    expect(t.toOriginal(2, 'start')).toBe(20);
    expect(t.toOriginal(2, 'end')).toBe(12);
    expect(t.toOriginal(6.5)).toBe(24.5);
    expect(t.toOriginal(9)).toBe(25);
    expect(t.seams()).toEqual([2]);
  });
  it('never lets a span cross a gap, and lists the samples of a stretch of speech time', () => {
    expect(t.spanToOriginal(1.5, 2.5)).toEqual({ start: 11.5, end: 12 });
    expect(t.sampleRanges(1, 3, 100)).toEqual([
      [1100, 1200],
      [2000, 2100],
    ]);
  });
  it('is the identity without regions', () => {
    expect(new SpeechTimeline([]).toOriginal(3.3)).toBe(3.3);
  });
});
