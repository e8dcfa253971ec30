// How a transcript is cut for the model: whole when it may fit (the model refuses cheaply when it
// does not), else in sections that fit the budget, smaller each time the model says one overflows.
import { describe, expect, it } from 'vitest';
import { LanguageModelError } from '../language-model/types';
import { mapSections } from './generate';
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
