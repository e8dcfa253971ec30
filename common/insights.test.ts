import { describe, expect, it } from 'vitest';
import { chapterClock, vttChapters, youtubeChapters, type Chapter } from './insights';

const chapters: Chapter[] = [
  { segment: 0, start: 1.4, title: 'Intro', summary: 'Hello' },
  { segment: 4, start: 75.2, title: 'The  plan\nfor Q1', summary: '' },
  { segment: 9, start: 3725, title: 'Wrap --> up', summary: '' },
];

describe('chapter exports', () => {
  it('writes a YouTube description block whose first line is at 00:00', () => {
    expect(youtubeChapters(chapters)).toBe('00:00 Intro\n01:15 The plan for Q1\n1:02:05 Wrap --> up');
  });

  it('writes WebVTT chapters, each cue up to the next chapter, the last to the end', () => {
    const vtt = vttChapters(chapters, 4000);
    expect(vtt.startsWith('WEBVTT\n\n1\n00:00:00.000 --> 00:01:15.200\nIntro\n\n')).toBe(true);
    expect(vtt).toContain('3\n01:02:05.000 --> 01:06:40.000\nWrap → up\n');
  });

  it('formats clocks with two-digit minutes', () => {
    expect(chapterClock(0)).toBe('00:00');
    expect(chapterClock(59.9)).toBe('00:59');
    expect(chapterClock(3600)).toBe('1:00:00');
    expect(chapterClock(Number.NaN)).toBe('00:00');
  });
});
