import { describe, expect, it } from 'vitest';
import { reportedLanguage, tokensToWords } from './recognize';

describe('token timings to words', () => {
  it('joins BPE pieces into words ending where the last piece ends (Parakeet TDT durations)', () => {
    const words = tokensToWords({
      text: 'Guten Morgen.',
      tokens: [' Gu', 'ten', ' Mor', 'gen', '.'],
      timestamps: [0.4, 0.56, 0.8, 0.96, 1.12],
      durations: [0.16, 0.16, 0.16, 0.08, 0.08],
    });
    expect(words).toEqual([
      { start: 0.4, end: 0.72, text: ' Guten' },
      { start: 0.8, end: 1.2, text: ' Morgen.' },
    ]);
  });

  it('makes every character of an unspaced script a word, ending at the next start (SenseVoice)', () => {
    const words = tokensToWords({
      text: '今日は。',
      tokens: ['今', '日', 'は', '。'],
      timestamps: [0.3, 0.36, 0.42, 2],
      lang: '<|ja|>',
    });
    expect(words.map((w) => w.text)).toEqual(['今', '日', 'は。']);
    expect(words[0]).toMatchObject({ start: 0.3, end: 0.36 });
    // Punctuation long after joins the word before; a word lasts at most 0.6 s without a duration.
    expect(words[2]!.end).toBeCloseTo(2.08);
  });

  it("reads SenseVoice's language tag", () => {
    expect(reportedLanguage({ text: '', tokens: [], timestamps: [], lang: '<|ko|>' })).toBe('ko');
    expect(reportedLanguage({ text: '', tokens: [], timestamps: [], lang: '<|nospeech|>' })).toBeNull();
    expect(reportedLanguage({ text: '', tokens: [], timestamps: [] })).toBeNull();
  });
});
