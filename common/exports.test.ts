import { describe, expect, it } from 'vitest';
import {
  EXPORT_CONTENT_TYPES,
  contentDisposition,
  exportFileName,
  exportableSegments,
  formatJson,
  formatSrt,
  formatTxt,
  formatVtt,
  uniqueFileNames,
} from './exports';
import type { Segment } from './segments';

const SEGMENTS: Segment[] = [
  { start: 1.2, end: 4.9, text: 'Hello' },
  { start: 5, end: 9, text: '   ' },
  { start: 5.5, end: 9.25, text: 'World' },
  { start: 3723.5, end: 3729, text: 'After  an\nhour' },
];

describe('formatTxt', () => {
  it('separates segments with a blank line and skips blank ones', () => {
    expect(formatTxt(SEGMENTS, { timestamps: false })).toBe('Hello\n\nWorld\n\nAfter an hour\n');
  });

  it('prefixes start - end as m:ss, or h:mm:ss from one hour', () => {
    expect(formatTxt(SEGMENTS, { timestamps: true })).toBe(
      '0:01 - 0:04\nHello\n\n0:05 - 0:09\nWorld\n\n1:02:03 - 1:02:09\nAfter an hour\n',
    );
  });

  it('matches the documented example', () => {
    const segs = [
      { start: 1, end: 4, text: 'Hello' },
      { start: 5, end: 9, text: 'World' },
    ];
    expect(formatTxt(segs, { timestamps: true })).toBe('0:01 - 0:04\nHello\n\n0:05 - 0:09\nWorld\n');
  });

  it('gives an empty file for no or only blank segments', () => {
    expect(formatTxt([], { timestamps: true })).toBe('');
    expect(formatTxt([{ start: 0, end: 1, text: ' \n ' }], { timestamps: false })).toBe('');
  });

  it('passes Unicode, emoji and right-to-left text through unchanged', () => {
    const segs = [
      { start: 0, end: 2, text: 'Grüße, 你好 👋🏽 café' },
      { start: 2, end: 4, text: 'مرحبا بالعالم' },
      { start: 4, end: 6, text: 'שלום עולם (123)' },
      { start: 6, end: 8, text: '👨‍👩‍👧 family' },
    ];
    expect(formatTxt(segs, { timestamps: true })).toBe(
      '0:00 - 0:02\nGrüße, 你好 👋🏽 café\n\n' +
        '0:02 - 0:04\nمرحبا بالعالم\n\n' +
        '0:04 - 0:06\nשלום עולם (123)\n\n' +
        '0:06 - 0:08\n👨‍👩‍👧 family\n',
    );
  });

  it('does not mutate its input', () => {
    const copy = structuredClone(SEGMENTS);
    formatTxt(SEGMENTS, { timestamps: true });
    expect(SEGMENTS).toEqual(copy);
  });
});

describe('srt and vtt (from captions)', () => {
  it('numbers SubRip cues consecutively, skipping blank ones, past one hour', () => {
    expect(formatSrt(SEGMENTS)).toBe(
      '1\n00:00:01,200 --> 00:00:04,900\nHello\n\n' +
        '2\n00:00:05,500 --> 00:00:09,250\nWorld\n\n' +
        '3\n01:02:03,500 --> 01:02:09,000\nAfter an hour\n\n',
    );
  });

  it('writes WebVTT with its header, RTL text unchanged', () => {
    expect(formatVtt([...SEGMENTS, { start: 3730, end: 3731, text: 'שלום' }])).toBe(
      'WEBVTT\n\n' +
        '00:00:01.200 --> 00:00:04.900\nHello\n\n' +
        '00:00:05.500 --> 00:00:09.250\nWorld\n\n' +
        '01:02:03.500 --> 01:02:09.000\nAfter an hour\n\n' +
        '01:02:10.000 --> 01:02:11.000\nשלום\n',
    );
  });
});

describe('formatJson', () => {
  it('is pretty-printed, with blank segments skipped', () => {
    const json = formatJson({ name: 'Talk', duration: 3730.5, language: 'en', segments: SEGMENTS });
    expect(json).toBe(
      [
        '{',
        '  "name": "Talk",',
        '  "duration": 3730.5,',
        '  "language": "en",',
        '  "segments": [',
        '    {',
        '      "start": 1.2,',
        '      "end": 4.9,',
        '      "text": "Hello"',
        '    },',
        '    {',
        '      "start": 5.5,',
        '      "end": 9.25,',
        '      "text": "World"',
        '    },',
        '    {',
        '      "start": 3723.5,',
        '      "end": 3729,',
        '      "text": "After an hour"',
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('keeps unknown duration and language as null, and Unicode unescaped', () => {
    const json = formatJson({
      name: 'مقابلة 🎙',
      duration: null,
      language: null,
      segments: [{ start: 0, end: 1, text: 'שלום "quoted"' }],
    });
    expect(JSON.parse(json)).toEqual({
      name: 'مقابلة 🎙',
      duration: null,
      language: null,
      segments: [{ start: 0, end: 1, text: 'שלום "quoted"' }],
    });
    expect(json).toContain('"name": "مقابلة 🎙"');
  });
});

describe('exportableSegments', () => {
  it('keeps only start, end and one-line text', () => {
    const extra = { start: 1, end: 2, text: ' a\tb ', speaker: 'x' } as Segment;
    expect(exportableSegments([extra, { start: 2, end: 3, text: '' }])).toEqual([
      { start: 1, end: 2, text: 'a b' },
    ]);
  });
});

describe('exportFileName', () => {
  it('adds the extension to a plain name', () => {
    expect(exportFileName('Weekly meeting', 'txt')).toBe('Weekly meeting.txt');
    expect(exportFileName('v1.2 notes', 'srt')).toBe('v1.2 notes.srt');
  });

  it('replaces each run of unsafe characters with one underscore', () => {
    expect(exportFileName('a/b\\c:d*e?f"g<h>i|j', 'txt')).toBe('a_b_c_d_e_f_g_h_i_j.txt');
    expect(exportFileName('Q&A: 2024/05/01 -- "final"?', 'docx')).toBe('Q&A_ 2024_05_01 -- _final_.docx');
    expect(exportFileName('tab\there\x00\x07bell\x7f\u0085', 'txt')).toBe('tab here_bell_.txt');
  });

  it('turns line breaks and whitespace runs into one space', () => {
    expect(exportFileName('  line one\r\n\tline  two  ', 'txt')).toBe('line one line two.txt');
  });

  it('drops leading dots and trailing dots and spaces', () => {
    expect(exportFileName('.hidden', 'txt')).toBe('hidden.txt');
    expect(exportFileName('...env', 'txt')).toBe('env.txt');
    expect(exportFileName('..', 'txt')).toBe('transcript.txt');
    expect(exportFileName('name. . .', 'txt')).toBe('name.txt');
    expect(exportFileName('../../etc/passwd', 'txt')).toBe('_.._etc_passwd.txt');
  });

  it('falls back to "transcript" when nothing usable is left', () => {
    expect(exportFileName('', 'txt')).toBe('transcript.txt');
    expect(exportFileName('   ', 'srt')).toBe('transcript.srt');
    expect(exportFileName('/\\:*?"<>|', 'docx')).toBe('transcript.docx');
    expect(exportFileName('?? . ??', 'txt')).toBe('transcript.txt');
    expect(exportFileName('\u0001\u0002', 'json')).toBe('transcript.json');
    // Underscores are ordinary characters.
    expect(exportFileName('___', 'txt')).toBe('___.txt');
  });

  it('prefixes Windows device names, whatever the case or extension', () => {
    expect(exportFileName('CON', 'txt')).toBe('_CON.txt');
    expect(exportFileName('nul', 'txt')).toBe('_nul.txt');
    expect(exportFileName('Aux', 'docx')).toBe('_Aux.docx');
    expect(exportFileName('com1', 'srt')).toBe('_com1.srt');
    expect(exportFileName('LPT9', 'vtt')).toBe('_LPT9.vtt');
    expect(exportFileName('COM¹', 'txt')).toBe('_COM¹.txt');
    expect(exportFileName('prn.backup', 'txt')).toBe('_prn.backup.txt');
    expect(exportFileName('con .log', 'txt')).toBe('_con .log.txt');
    // Only the exact names.
    expect(exportFileName('CONSOLE', 'txt')).toBe('CONSOLE.txt');
    expect(exportFileName('com10', 'txt')).toBe('com10.txt');
    expect(exportFileName('my con', 'txt')).toBe('my con.txt');
  });

  it('keeps Unicode, emoji and right-to-left names as they are', () => {
    expect(exportFileName('Réunion 會議 🎙️', 'txt')).toBe('Réunion 會議 🎙️.txt');
    expect(exportFileName('مقابلة العمل', 'docx')).toBe('مقابلة العمل.docx');
    expect(exportFileName('ראיון', 'srt')).toBe('ראיון.srt');
  });

  it('removes bidi override characters that could disguise the extension', () => {
    expect(exportFileName('invoice\u202Etxt.exe', 'docx')).toBe('invoice_txt.exe.docx');
    expect(exportFileName('a\u2066b\u2069', 'txt')).toBe('a_b_.txt');
  });

  it('caps the stem at 150 characters without splitting a character', () => {
    expect(exportFileName('a'.repeat(400), 'txt')).toBe(`${'a'.repeat(150)}.txt`);
    // 149 letters then an emoji (two UTF-16 units): the emoji fits as the 150th character.
    expect(exportFileName(`${'b'.repeat(149)}😀😀`, 'txt')).toBe(`${'b'.repeat(149)}😀.txt`);
    // Trailing dots and spaces left by the cut are dropped too.
    expect(exportFileName(`${'c'.repeat(148)}. d`, 'txt')).toBe(`${'c'.repeat(148)}.txt`);
  });

  it('caps the stem at 200 UTF-8 bytes so any file system takes it', () => {
    const name = exportFileName('語'.repeat(150), 'txt');
    expect(name).toBe(`${'語'.repeat(66)}.txt`);
    expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(255);
  });

  it('replaces unpaired surrogates', () => {
    expect(exportFileName('a\uD800b', 'txt')).toBe('a\uFFFDb.txt');
  });
});

describe('uniqueFileNames', () => {
  it('numbers repeated names from 2', () => {
    expect(uniqueFileNames(['name.txt', 'name.txt', 'other.txt', 'name.txt'])).toEqual([
      'name.txt',
      'name (2).txt',
      'other.txt',
      'name (3).txt',
    ]);
  });

  it('ignores case, and never takes a name given later', () => {
    expect(uniqueFileNames(['A.txt', 'a.txt', 'a (2).txt'])).toEqual(['A.txt', 'a (3).txt', 'a (2).txt']);
  });

  it('numbers before the last extension only', () => {
    expect(uniqueFileNames(['v1.2.srt', 'v1.2.srt', 'README', 'README'])).toEqual([
      'v1.2.srt',
      'v1.2 (2).srt',
      'README',
      'README (2)',
    ]);
  });
});

describe('contentDisposition', () => {
  it('gives a plain ASCII name both ways', () => {
    expect(contentDisposition('Weekly meeting.txt')).toBe(
      `attachment; filename="Weekly meeting.txt"; filename*=UTF-8''Weekly%20meeting.txt`,
    );
  });

  it('percent-encodes UTF-8 and the characters RFC 5987 does not allow', () => {
    expect(contentDisposition("Café d'été (2).srt")).toBe(
      `attachment; filename="Cafe d'ete (2).srt"; filename*=UTF-8''Caf%C3%A9%20d%27%C3%A9t%C3%A9%20%282%29.srt`,
    );
    expect(contentDisposition('a*b&c+d.txt')).toBe(
      `attachment; filename="a*b&c+d.txt"; filename*=UTF-8''a%2Ab%26c%2Bd.txt`,
    );
  });

  it('falls back to underscores for scripts without an ASCII form', () => {
    expect(contentDisposition('مقابلة العمل.docx')).toBe(
      `attachment; filename="_ _.docx"; filename*=UTF-8''%D9%85%D9%82%D8%A7%D8%A8%D9%84%D8%A9%20%D8%A7%D9%84%D8%B9%D9%85%D9%84.docx`,
    );
    expect(contentDisposition('会議 👋.txt')).toBe(
      `attachment; filename="_ _.txt"; filename*=UTF-8''%E4%BC%9A%E8%AD%B0%20%F0%9F%91%8B.txt`,
    );
  });

  it('never lets a quote, backslash or percent sign into the quoted fallback', () => {
    expect(contentDisposition('a"b\\c%41.txt')).toBe(
      `attachment; filename="a_b_c_41.txt"; filename*=UTF-8''a%22b%5Cc%2541.txt`,
    );
  });

  it('decodes back to the same name', () => {
    const name = 'Ünïcødé 👨‍👩‍👧 (2).txt';
    const encoded = /filename\*=UTF-8''(.+)$/.exec(contentDisposition(name))?.[1] ?? '';
    expect(decodeURIComponent(encoded)).toBe(name);
  });
});

describe('EXPORT_CONTENT_TYPES', () => {
  it('declares UTF-8 for every text format', () => {
    for (const f of ['txt', 'srt', 'vtt', 'json'] as const) {
      expect(EXPORT_CONTENT_TYPES[f]).toMatch(/; charset=utf-8$/);
    }
  });
});
