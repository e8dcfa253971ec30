// The whisper engine with speech detection and word timings, on espeak-ng speech between silence,
// noise and music, with a random-weight model whose tokens are words (make-test-model --vocab words).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasEspeak, makeSpeechFixture, type SpeechFixture } from '../../../test/speech';
import { testModelPath } from '../../../test/test-model';
import { SLOW_PROCESS_TIMEOUT_MS } from '../../../test/wait';
import type { Segment, TranscribeResult } from '../types';
import { createWhisperEngine } from './engine';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-whisper-vad-'));
let model: string;
let fixture: SpeechFixture;
let result: TranscribeResult;
const stages: string[] = [];
const streamed: Segment[] = [];
const progress: { percent: number; remaining: number | null }[] = [];

const engine = (extra = {}) =>
  createWhisperEngine({ modelPath: model, threads: 2, temperature: 1, ...extra });

function expectWords(segments: Segment[]) {
  let prevEnd = 0;
  for (const s of segments) {
    expect(s.words?.length, s.text).toBeGreaterThan(0);
    for (const w of s.words!) {
      expect(w.start).toBeGreaterThanOrEqual(s.start);
      expect(w.end).toBeLessThanOrEqual(s.end);
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.start).toBeGreaterThanOrEqual(prevEnd);
      expect(w.text).toBe(w.text.trim());
      expect(s.text).toContain(w.text);
      prevEnd = w.end;
    }
  }
}

beforeAll(async () => {
  if (!hasEspeak()) throw new Error('espeak-ng is needed (apt-get install espeak-ng)');
  model = await testModelPath('test', 'words');
  fixture = makeSpeechFixture(dir, { phrases: 6, gapSec: 8 });
  result = await engine().transcribe(
    { pcmPath: fixture.pcmPath, durationSec: fixture.durationSec },
    {
      language: 'en',
      onStage: (s) => stages.push(s),
      onSegment: (s) => streamed.push(s),
      onProgress: (percent, detail) => progress.push({ percent, remaining: detail?.remainingSec ?? null }),
    },
  );
}, 240_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Real whisper.cpp decoding in a child process: slow when the two cores are shared.
describe('speech detection in the engine', { timeout: SLOW_PROCESS_TIMEOUT_MS }, () => {
  it('transcribes only the speech regions, which cover every phrase', () => {
    expect(stages).toEqual(['detecting', 'transcribing']);
    const regions = result.speechRegions!;
    expect(regions.length).toBe(fixture.speech.length);
    for (const t of fixture.speech)
      expect(regions.some((r) => r.start <= t.start && r.end >= t.end)).toBe(true);
    expect(result.segments.length).toBeGreaterThan(0);
    expect(streamed).toEqual(result.segments);
  });

  it('puts no segment inside a silent stretch', () => {
    const regions = result.speechRegions!;
    for (const s of result.segments) {
      const mid = (s.start + s.end) / 2;
      expect(
        regions.some((r) => mid >= r.start && mid <= r.end),
        `${s.start}–${s.end}`,
      ).toBe(true);
      for (const w of s.words ?? []) {
        expect(
          regions.some((r) => w.start >= r.start - 1e-6 && w.end <= r.end + 1e-6),
          `${w.text} ${w.start}`,
        ).toBe(true);
      }
    }
  });

  it('times words in order, without overlaps, inside their segments', () => {
    // Random weights say little (a word or two per phrase); real models fill the segments.
    expectWords(result.segments);
  });

  it('reports progress to 100 with the time left', () => {
    expect(progress.at(-1)!.percent).toBe(100);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.percent).toBeGreaterThanOrEqual(progress[i - 1]!.percent);
    expect(progress.some((p) => p.remaining !== null && p.percent < 100)).toBe(true);
  });

  it('gives no text and loads no model for silence and music only', async () => {
    const pcm = path.join(dir, 'quiet.pcm');
    const quiet = makeSpeechFixture(path.join(dir, 'q'), { phrases: 0, gapSec: 20, gaps: ['music'] });
    writeFileSync(pcm, Buffer.alloc(16000 * 2 * 10));
    const seen: string[] = [];
    for (const file of [pcm, quiet.pcmPath]) {
      const r = await engine().transcribe(
        { pcmPath: file, durationSec: 10 },
        { language: 'auto', onStage: (s) => seen.push(s) },
      );
      expect(r.segments).toEqual([]);
      expect(r.speechRegions).toEqual([]);
    }
    expect(seen).toEqual(['detecting', 'detecting']);
  });

  it('transcribes everything when detection is off', async () => {
    const r = await engine().transcribe(
      { pcmPath: fixture.pcmPath, durationSec: fixture.durationSec },
      { language: 'en', detectSpeech: false },
    );
    expect(r.speechRegions).toBeNull();
    expectWords(r.segments);
  });
});
