import { describe, expect, it } from 'vitest';
import { createWordGrouper, groupWords } from './word-groups';

/** Words with Whisper's leading spaces, one every 0.4 s (0.3 s long). */
function words(text: string, from = 0, step = 0.4) {
  return text
    .split(' ')
    .map((t, i) => ({ start: from + i * step, end: from + i * step + 0.3, text: ` ${t}` }));
}

describe('groupWords', () => {
  it('closes a segment after each sentence and keeps the word timings', () => {
    const segs = groupWords(words('Hello there. How are you? Fine!'));
    expect(segs.map((s) => s.text)).toEqual(['Hello there.', 'How are you?', 'Fine!']);
    expect(segs[1]).toMatchObject({ start: 0.8, end: 1.9 });
    expect(segs[1]!.words!.map((w) => w.text)).toEqual(['How', 'are', 'you?']);
  });

  it('does not end a sentence at a common abbreviation', () => {
    expect(groupWords(words('I met Dr. Smith today.')).map((s) => s.text)).toEqual([
      'I met Dr. Smith today.',
    ]);
  });

  it('closes at a pause', () => {
    const segs = groupWords([...words('so we went'), ...words('and then', 5)]);
    expect(segs.map((s) => s.text)).toEqual(['so we went', 'and then']);
  });

  it('breaks a long run at a comma in its second half, else at the longest pause', () => {
    const long = words('one two three four five six seven eight, nine ten eleven twelve thirteen fourteen');
    const segs = groupWords(long, { maxChars: 70 });
    expect(segs.map((s) => s.text)).toEqual([
      'one two three four five six seven eight,',
      'nine ten eleven twelve thirteen fourteen',
    ]);
    for (const s of groupWords(words(Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ')))) {
      expect(s.text.length).toBeLessThanOrEqual(120);
      expect(s.end - s.start).toBeLessThanOrEqual(12);
    }
  });

  it('joins unspaced scripts without spaces and uses the shorter limit', () => {
    const zh = '我们今天去公园散步然后回家吃饭晚上看电影'
      .split('')
      .map((ch, i) => ({ start: i * 0.2, end: i * 0.2 + 0.15, text: ch }));
    const segs = groupWords(
      [...zh, ...zh, ...zh].map((w, i) => ({ ...w, start: i * 0.2, end: i * 0.2 + 0.15 })),
    );
    expect(segs[0]!.text).toMatch(/^我们今天去公园/);
    expect(segs[0]!.text).not.toContain(' ');
    for (const s of segs) expect([...s.text].length).toBeLessThanOrEqual(50);
  });

  it('streams: holds the open sentence back until it closes', () => {
    const g = createWordGrouper();
    const [a, b, c] = words('Good morning everyone.');
    expect(g.push(a!)).toEqual([]);
    expect(g.push(b!)).toEqual([]);
    expect(g.pendingStart()).toBe(0);
    expect(g.push(c!).map((s) => s.text)).toEqual(['Good morning everyone.']);
    expect(g.pendingStart()).toBeNull();
    g.push(words('more')[0]!);
    g.discardPending();
    expect(g.flush()).toEqual([]);
  });
});
