import { describe, expect, it } from 'vitest';
import { collapseRepeatedWords, createRepetitionGuard } from './repetition';

const words = (text: string) => text.split(' ').map((t, i) => ({ start: i, end: i + 0.5, text: t }));

describe('collapseRepeatedWords', () => {
  it('collapses a sentence said over and over, keeping the first time', () => {
    const out = collapseRepeatedWords(
      words('ok thank you for watching thank you for watching thank you for watching. bye'),
    );
    expect(out.map((w) => w.text)).toEqual(['ok', 'thank', 'you', 'for', 'watching', 'bye']);
    expect(out[1]!.start).toBe(1);
  });
  it('leaves short natural repetitions alone', () => {
    const natural = words('no no no I said it twice I said it twice');
    expect(collapseRepeatedWords(natural)).toEqual(natural);
    expect(collapseRepeatedWords(words('la la la la la la la la la')).map((w) => w.text)).toEqual(['la']);
  });
});

describe('createRepetitionGuard', () => {
  it('drops a segment that repeats the one before it, and seam repeats of its tail', () => {
    const guard = createRepetitionGuard();
    expect(guard.accept({ start: 0, end: 3, text: 'We start with the basics today.' })).not.toBeNull();
    expect(guard.accept({ start: 3, end: 6, text: 'we start with the basics today' })).toBeNull();
    expect(guard.accept({ start: 6, end: 9, text: 'Then we go further.' })).not.toBeNull();
    expect(guard.accept({ start: 8.5, end: 10, text: 'we go further.' })).toBeNull();
    expect(guard.accept({ start: 10, end: 12, text: 'And further still.' })).not.toBeNull();
    expect(guard.accept({ start: 12, end: 13, text: '...' })).toBeNull();
  });
  it('collapses a loop inside one segment, words and text together', () => {
    const guard = createRepetitionGuard();
    const seg = {
      start: 0,
      end: 12,
      text: 'thank you thank you thank you thank you',
      words: words('thank you thank you thank you thank you'),
    };
    const out = guard.accept(seg)!;
    expect(out.text).toBe('thank you');
    expect(out.words!.map((w) => w.text)).toEqual(['thank', 'you']);
    expect(out.end).toBe(1.5);
    expect(
      createRepetitionGuard().accept({ start: 0, end: 5, text: 'go go go go go go go go go' })!.text,
    ).toBe('go');
  });
});
