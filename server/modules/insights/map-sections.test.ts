// How a transcript is cut for the model: whole when it may fit (the model refuses cheaply when it
// does not), else in sections that fit the budget, smaller each time the model says one overflows.
import { describe, expect, it } from 'vitest';
import type { Segment } from '../../../common/segments';
import { LanguageModelError, type CompleteRequest, type LanguageModel } from '../language-model/types';
import { generateSummary, mapSections } from './generate';
import type { Line } from './transcript-lines';

const lines = (n: number, tokens = 10): Line[] =>
  Array.from({ length: n }, (_, index) => ({ index, start: index, text: `[${index}] x`, tokens }));
const overflow = () => new LanguageModelError('context_overflow', 'too long');

describe('mapSections', () => {
  it('tries lines estimated a little over the budget whole first, and keeps the answer when they fit', async () => {
    const seen: number[] = [];
    const out = await mapSections(lines(12), 100, async (section) => (seen.push(section.length), 'ok'));
    expect(seen).toEqual([12]); // 120 estimated tokens against 100: one completion, not two and a merge
    expect(out).toEqual(['ok']);
  });

  it('falls back to sections within the budget when the model says the whole does not fit', async () => {
    const seen: number[] = [];
    const out = await mapSections(lines(12), 100, async (section) => {
      seen.push(section.length);
      if (section.length > 10) throw overflow();
      return section.map((l) => l.index);
    });
    expect(seen).toEqual([12, 10, 2]);
    expect(out.flat()).toEqual(lines(12).map((l) => l.index)); // every line read once
  });

  it('cuts lines far over the budget into sections at once, and halves them on an overflow', async () => {
    const seen: number[] = [];
    await mapSections(lines(40), 100, async (section) => {
      seen.push(section.length);
      if (section.length > 5) throw overflow();
    });
    // 400 estimated tokens: never tried whole; sections of 10 overflow, so 5 each.
    expect(seen).toEqual([10, 5, 5, 5, 5, 5, 5, 5, 5]);
  });

  it('passes on other errors of the whole try', async () => {
    await expect(
      mapSections(lines(12), 100, async () => {
        throw new LanguageModelError('timeout', 'slow', true);
      }),
    ).rejects.toThrow('slow');
  });
});

describe('merging section summaries', () => {
  it('joins two notes the model cannot read together instead of failing the summary', async () => {
    const segments: Segment[] = Array.from({ length: 400 }, (_, i) => ({
      start: i * 10,
      end: i * 10 + 9,
      text: `Segment ${i}: the team went through the budget, the hiring plan and the launch date.`,
    }));
    let merges = 0;
    const model: LanguageModel = {
      kind: 'openai',
      model: 'fake',
      contextTokens: 4096,
      async complete(req: CompleteRequest) {
        const prompt = req.messages.at(-1)!.content;
        if (prompt.startsWith('<notes>')) {
          merges++;
          throw new LanguageModelError('context_overflow', 'the notes do not fit');
        }
        const first = Number(/\[(\d+)\]/.exec(prompt.slice(prompt.indexOf('<transcript')))![1]);
        const cited = (text: string) => ({ text, segments: [first] });
        const json = {
          bottomLine: cited(`Part from ${first}`),
          keyPoints: [cited(`Key point at ${first}`)],
          decisions: [],
          actionItems: [{ ...cited(`Action at ${first}`), owner: null, due: null }],
          openQuestions: [],
        };
        return {
          text: JSON.stringify(json),
          json,
          stopReason: 'stop' as const,
          usage: { promptTokens: 1, completionTokens: 1 },
        };
      },
    };
    const summary = await generateSummary({ model, segments, durationSec: 4000, language: 'English' });
    expect(merges).toBeGreaterThan(0);
    expect(summary.bottomLine.text).toBe('Part from 0');
    // Every part's items kept, up to the lists' limits, each with its citation.
    expect(summary.keyPoints.length).toBeGreaterThan(1);
    expect(summary.keyPoints.map((p) => p.cites[0]!.segment)).toEqual(
      [...summary.keyPoints.map((p) => p.cites[0]!.segment)].sort((a, b) => a - b),
    );
    expect(summary.actionItems.length).toBeGreaterThan(1);
  });
});
