import { describe, expect, it } from 'vitest';
import { formatSrtCues } from './captions';
import { subtitleCues } from './cues';
import { readingCues } from './reading-cues';
import { readingLimits, scriptOf } from './reading-speed';
import type { Segment } from './segments';

const seg = (start: number, end: number, text: string, speaker?: string): Segment => ({
  start,
  end,
  text,
  ...(speaker ? { speaker } : {}),
});

describe('reading speed per script', () => {
  it('knows the script of a language code and its limits', () => {
    expect(scriptOf('ja')).toBe('japanese');
    expect(scriptOf('zh-TW')).toBe('chinese');
    expect(scriptOf('ru')).toBe('cyrillic');
    expect(scriptOf('es')).toBe('latin');
    expect(scriptOf(null)).toBe('latin');
    expect(readingLimits('ja')).toEqual({ lineChars: 16, cps: 4 });
    expect(readingLimits('ko')).toEqual({ lineChars: 16, cps: 12 });
    expect(readingLimits('es')).toEqual({ lineChars: 42, cps: 17 });
    expect(readingLimits('th')).toEqual({ lineChars: 35, cps: 15 });
  });
});

describe('cues of a translation, timed for its readers', () => {
  it('Japanese: 16 characters a line, 4 a second; too-fast segments joined, cues kept up to be read', () => {
    const ja = [
      seg(0, 2.5, '皆さん、こんにちは。'),
      seg(2.6, 4, '今日は新しい機能を紹介します。'),
      seg(
        4.2,
        9,
        '翻訳された字幕は、対象言語の読む速さに合わせて表示時間が調整され、長すぎる行は分けられます。',
      ),
      seg(12, 12.6, 'はい。'),
      seg(12.7, 14, 'ありがとうございました。'),
    ];
    // The second segment (15 characters in 1.6 s) cannot be read: it joins the first (the third
    // is too long to join); "はい。" is up for under 5/6 s and joins what follows; the long one
    // is cut in two cues, the second kept up 3.75 s (15 characters at 4 a second).
    expect(formatSrtCues(readingCues(ja, { language: 'ja' }))).toBe(
      [
        '1\n00:00:00,000 --> 00:00:04,200\n皆さん、こんにちは。\n今日は新しい機能を紹介します。\n',
        '2\n00:00:04,200 --> 00:00:07,435\n翻訳された字幕は、対象言語の読\nむ速さに合わせて表示時間が調整さ\n',
        '3\n00:00:07,435 --> 00:00:11,185\nれ、長すぎる行は分けられます。\n',
        '4\n00:00:12,000 --> 00:00:15,750\nはい。ありがとうございました。\n\n',
      ].join('\n'),
    );
  });

  it('Spanish: 42 characters a line, 17 a second; speakers never joined', () => {
    const es = [
      seg(0, 1.2, 'Hola a todos.'),
      seg(1.3, 2.4, 'Hoy os presento la nueva función de subtítulos traducidos.'),
      seg(
        2.5,
        9,
        'Los subtítulos traducidos se ajustan a la velocidad de lectura del idioma de destino y las líneas demasiado largas se dividen.',
      ),
      seg(10, 10.5, 'Sí.', 'a'),
      seg(10.6, 11, 'Vale.', 'b'),
    ];
    const cues = readingCues(es, { language: 'es' });
    expect(cues).toEqual([
      {
        start: 0,
        end: 2.5,
        lines: ['Hola a todos. Hoy os presento la nueva', 'función de subtítulos traducidos.'],
      },
      {
        start: 2.5,
        end: 6.885,
        lines: ['Los subtítulos traducidos se ajustan a la', 'velocidad de lectura del idioma de destino'],
      },
      // 41 characters at 17 a second: 2.412 s on screen (past the segment's end, before the next).
      { start: 6.885, end: 9.297, lines: ['y las líneas demasiado largas se dividen.'] },
      { start: 10, end: 10.5, lines: ['Sí.'], speaker: 'a' },
      { start: 10.6, end: 11, lines: ['Vale.'], speaker: 'b' },
    ]);
    // The original's cues (20 characters a second, no joining): the first two segments stay
    // apart, the last cue ends with its segment (41 / 20 = 2.05 s fit before it ends).
    expect(subtitleCues(es.slice(0, 3), { language: 'es' }).map((c) => [c.start, c.end])).toEqual([
      [0, 1.2],
      [1.3, 2.5],
      [2.5, 6.833],
      [6.885, 9],
    ]);
  });

  it('counts a speaker-name prefix in the line length when joining', () => {
    const segments = [
      seg(0, 0.5, 'Sí, claro que sí.', 's1'),
      seg(0.6, 1.5, 'Vamos a empezar ahora mismo.', 's1'),
    ];
    const prefix = () => 'Ana: ';
    const cues = readingCues(segments, { language: 'es', prefixOf: prefix });
    expect(cues).toEqual([
      { start: 0, end: 3, lines: ['Ana: Sí, claro que sí.', 'Vamos a empezar ahora mismo.'], speaker: 's1' },
    ]);
  });
});
