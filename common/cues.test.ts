import { describe, expect, it } from 'vitest';
import { formatSrtCues, formatVttCues, parseCaptions } from './captions';
import { segmentCues, subtitleCues, wrapLines } from './cues';
import type { Segment } from './segments';

const chars = (s: string) => [...s].length;

/** A long segment with a word every 0.35 s. */
function spoken(text: string, start = 0, step = 0.35): Segment {
  const tokens = text.split(' ');
  let cursor = 0;
  const words = tokens.map((t, i) => {
    cursor = text.indexOf(t, cursor) + t.length;
    return { start: start + i * step, end: start + i * step + step * 0.8, text: t };
  });
  return { start, end: start + tokens.length * step, text, words };
}

function checkCue(lines: string[], maxChars: number) {
  expect(lines.length).toBeLessThanOrEqual(2);
  for (const l of lines) expect(chars(l)).toBeLessThanOrEqual(maxChars);
}

describe('subtitleCues', () => {
  const long = spoken(
    'When we started this project, nobody believed it could work. We had no money, no office and no customers, ' +
      'but we had a plan and a lot of patience. Today the team is forty people strong and growing every month.',
  );

  it('keeps every cue within 2 lines of 42 characters and 7 seconds, timed from the words', () => {
    const cues = subtitleCues([long]);
    expect(cues.length).toBeGreaterThan(3);
    for (const c of cues) {
      checkCue(c.lines, 42);
      expect(c.end - c.start).toBeLessThanOrEqual(7);
    }
    // Cues follow each other without overlapping and cover the words in order.
    for (let i = 1; i < cues.length; i++) expect(cues[i]!.start).toBeGreaterThanOrEqual(cues[i - 1]!.end);
    expect(cues[0]!.start).toBe(0);
    expect(cues.map((c) => c.lines.join(' ')).join(' ')).toBe(long.text);
  });

  it('breaks at sentence ends and commas when there is one', () => {
    const cues = subtitleCues([long]);
    const ends = cues.map((c) => c.lines[c.lines.length - 1]!);
    expect(ends.filter((l) => /[.,]$/.test(l)).length).toBeGreaterThanOrEqual(cues.length - 1);
    expect(cues.some((c) => c.lines.join(' ').endsWith('could work.'))).toBe(true);
  });

  it('balances two lines', () => {
    expect(wrapLines('We had no money, no office and no customers', 42, 2, false)).toEqual([
      'We had no money,',
      'no office and no customers',
    ]);
    expect(wrapLines('short', 42, 2, false)).toEqual(['short']);
    expect(wrapLines('x'.repeat(90), 42, 2, false)).toBeNull();
  });

  it('uses 16 characters per line for Chinese, Japanese and Korean', () => {
    const zh: Segment = {
      start: 0,
      end: 12,
      text: '我们今天去公园散步，然后回家吃饭。晚上我们一起看了一部很好看的电影。',
    };
    const cues = subtitleCues([zh], { language: 'zh' });
    expect(cues.length).toBeGreaterThan(1);
    for (const c of cues) checkCue(c.lines, 16);
    expect(cues.map((c) => c.lines.join('')).join('')).toBe(zh.text);
    const ko: Segment = {
      start: 0,
      end: 8,
      text: '오늘은 날씨가 정말 좋아서 친구들과 함께 공원에 가서 산책을 했습니다',
    };
    for (const c of subtitleCues([ko])) checkCue(c.lines, 16);
  });

  it('keeps about 20 characters per second when the next cue leaves room', () => {
    const fast: Segment[] = [
      { start: 0, end: 1, text: 'This sentence is far too quick to read.' },
      { start: 10, end: 11, text: 'Next.' },
    ];
    const cues = subtitleCues(fast);
    expect(cues[0]!.end).toBeCloseTo(39 / 20, 2);
    const crowded = subtitleCues([fast[0]!, { start: 1.2, end: 2, text: 'Next.' }]);
    expect(crowded[0]!.end).toBe(1.2);
  });

  it('splits segments without words by the position of the text', () => {
    const seg: Segment = { start: 10, end: 30, text: long.text };
    const cues = subtitleCues([seg]);
    for (const c of cues) {
      checkCue(c.lines, 42);
      expect(c.end - c.start).toBeLessThanOrEqual(7);
      expect(c.start).toBeGreaterThanOrEqual(10);
      expect(c.end).toBeLessThanOrEqual(30);
    }
  });

  it('writes SubRip and WebVTT with the documented timestamps and the lines of each cue', () => {
    const cues = subtitleCues([long]);
    const srt = formatSrtCues(cues);
    expect(srt.startsWith('1\n00:00:00,000 --> 00:00:0')).toBe(true);
    expect(srt).toMatch(/^\d+\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}\n.+\n.+\n\n/m);
    const back = parseCaptions(srt, 'x.srt');
    expect(back.map((s) => s.text).join(' ')).toBe(long.text);
    expect(formatVttCues(cues).startsWith('WEBVTT\n\n00:00:00.000 --> ')).toBe(true);
  });

  it('one cue per segment on request', () => {
    expect(segmentCues([long, { start: 1, end: 2, text: '  ' }])).toEqual([
      { start: long.start, end: long.end, lines: [long.text] },
    ]);
  });
});
