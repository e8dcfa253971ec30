// Summary and chapters through the `local` adapter: real node-llama-cpp in its own process, on a
// tiny random-weight GGUF model the project writes itself. The words are noise; the structure is
// not: the grammar makes the output parse, and every citation left points at a real segment.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLlmModel } from '../../../scripts/make-llm-model.mjs';
import { summaryCitations, youtubeChapters } from '../../../common/insights';
import type { Segment } from '../../../common/segments';
import { createLocalModel } from '../language-model/local';
import type { LanguageModel } from '../language-model/types';
import { generateChapters, generateSummary } from './generate';

let dir: string;
let model: LanguageModel;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'insights-local-'));
  const modelPath = path.join(dir, 'tiny.gguf');
  await makeLlmModel(modelPath, { preset: 'test' });
  // A small context, so a few minutes of transcript already take several sections.
  model = createLocalModel({ modelPath, modelName: 'test', threads: 1, contextTokens: 4096 });
});
afterAll(async () => {
  await model?.close?.();
  await rm(dir, { recursive: true, force: true });
});

const transcript = (n: number): Segment[] =>
  Array.from({ length: n }, (_, i) => ({
    start: i * 15,
    end: i * 15 + 14,
    text: `Segment ${i}: the team went through the budget, the hiring plan and the launch date.`,
  }));

describe('insights on the local model', { timeout: 240_000 }, () => {
  it('makes a summary whose citations all exist, reading a long transcript in sections', async () => {
    const segments = transcript(120);
    const phases = new Set<number>();
    const summary = await generateSummary({
      model,
      segments,
      durationSec: 1800,
      language: 'English',
      // Greedy decoding: the same output on every run.
      temperature: 0,
      onToken: (_t, phase) => phases.add(phase),
    });
    // More than one completion: sections, then a merge.
    expect(phases.size).toBeGreaterThan(2);
    expect(typeof summary.bottomLine.text).toBe('string');
    for (const c of summaryCitations(summary)) {
      expect(c.segment).toBeLessThan(segments.length);
      expect(c.start).toBe(segments[c.segment]!.start);
    }
    for (const p of [
      ...summary.keyPoints,
      ...summary.decisions,
      ...summary.actionItems,
      ...summary.openQuestions,
    ])
      expect(p.cites.length).toBeGreaterThan(0);
  });

  it('makes chapters at segment starts whose YouTube block starts at 00:00', async () => {
    const segments = transcript(30);
    const chapters = await generateChapters({
      model,
      segments,
      durationSec: 450,
      language: 'English',
      temperature: 0,
    });
    expect(chapters.length).toBeLessThanOrEqual(3);
    for (const c of chapters) expect(c.start).toBe(segments[c.segment]!.start);
    if (chapters.length > 0) expect(youtubeChapters(chapters).startsWith('00:00 ')).toBe(true);
  });
});
