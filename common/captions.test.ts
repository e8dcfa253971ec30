import { describe, it, expect } from 'vitest';
import {
  CaptionParseError,
  detectCaptionFormat,
  formatSrt,
  formatTimestamp,
  formatVtt,
  formatVttCues,
  parseCaptionTranscript,
  parseCaptions,
} from './captions';
import { normalizeSegments, type Segment } from './segments';
import { SPEAKER_COLORS } from './speakers';

const seg = (start: number, end: number, text: string): Segment => ({ start, end, text });

const crlf = (s: string): string => s.replace(/\n/g, '\r\n');

/** The error parseCaptions throws, or a test failure when it does not throw one. */
function parseError(text: string, filename?: string): CaptionParseError {
  try {
    parseCaptions(text, filename);
  } catch (e) {
    if (e instanceof CaptionParseError) return e;
    throw e;
  }
  throw new Error('expected parseCaptions to throw');
}

// What a desktop subtitle editor on Windows exports after a few hand edits: BOM, CRLF, a
// renumbered-then-moved cue, a cue that lost its number, '.' instead of ',', a position tag,
// SSA override, font tags, entities, a stray line of garbage and a cue glued to the next one.
const REAL_SRT = crlf(
  '\uFEFF1\n' +
    '00:00:01,600 --> 00:00:04,200\n' +
    '<i>Previously on</i> "The Harbour"...\n' +
    '\n' +
    '2\n' +
    '00:00:05,900 --> 00:00:07,999\n' +
    '- Who told you that?\n' +
    '- <b>Nobody</b>, I swear.\n' +
    '\n' +
    '7\n' +
    '00:00:08.000 --> 00:00:10.500 X1:100 X2:600 Y1:20 Y2:50\n' +
    '{\\an8}<font color="#ffff00">[DOOR SLAMS]</font>\n' +
    '\n' +
    '00:00:11,000 --> 00:00:13,250\n' +
    'Fish &amp; chips &lt;3\n' +
    '\n' +
    'this line is not a cue\n' +
    '\n' +
    '5\n' +
    '00:00:14,000 --> 00:00:15,000\n' +
    'Glued to the next cue\n' +
    '6\n' +
    '00:00:15,500 --> 00:00:17,000\n' +
    'It&#39;s fine.&nbsp;Really.\n' +
    '\n' +
    '\n' +
    '\n',
);

const REAL_SRT_SEGMENTS = [
  seg(1.6, 4.2, 'Previously on "The Harbour"...'),
  seg(5.9, 7.999, '- Who told you that? - Nobody, I swear.'),
  seg(8, 10.5, '[DOOR SLAMS]'),
  seg(11, 13.25, 'Fish & chips <3'),
  seg(14, 15, 'Glued to the next cue'),
  seg(15.5, 17, "It's fine. Really."),
];

// A YouTube/browser-style WebVTT file with header metadata, comments, a style sheet, a region,
// identifiers, short timestamps, cue settings, voice/class/inline timestamp tags.
const REAL_VTT =
  'WEBVTT - Episode 4\n' +
  'Kind: captions\n' +
  'Language: en\n' +
  '\n' +
  'NOTE This file was edited by hand.\n' +
  '\n' +
  'NOTE\n' +
  'A multi-line comment\n' +
  'that goes on.\n' +
  '\n' +
  'STYLE\n' +
  '::cue(.loud) {\n' +
  '  color: red;\n' +
  '}\n' +
  '\n' +
  'REGION\n' +
  'id:fred\n' +
  'width:40%\n' +
  '\n' +
  'intro\n' +
  '00:01.000 --> 00:04.000 align:start position:10% line:0\n' +
  '<v Roger Bingham>We are in New York City\n' +
  '\n' +
  '2\n' +
  '00:04.500 --> 00:06.250\n' +
  "<v.first.loud Esme>It's a <c.loud>blue</c> apple tree!</v>\n" +
  '\n' +
  '00:00:06.500 --> 00:00:09.000 region:fred\n' +
  '<00:00:06.500><c>Karaoke</c> <00:00:07.250><c>style</c>\n' +
  '<i>words</i> &gt; &quot;plain&quot;\n' +
  '\n' +
  'speaker-change\n' +
  '01:02:03.004 --> 01:02:05.000\n' +
  'An hour in &amp; still going\n';

const REAL_VTT_SEGMENTS = [
  seg(1, 4, 'We are in New York City'),
  seg(4.5, 6.25, "It's a blue apple tree!"),
  {
    ...seg(6.5, 9, 'Karaoke style words > "plain"'),
    // Inline timestamps time the words: 'Karaoke' from 6.5, the rest share 7.25–9 by length.
    words: [
      { start: 6.5, end: 7.25, text: 'Karaoke' },
      { start: 7.25, end: 7.736, text: 'style' },
      { start: 7.736, end: 8.222, text: 'words' },
      { start: 8.222, end: 8.319, text: '>' },
      { start: 8.319, end: 9, text: '"plain"' },
    ],
  },
  seg(3723.004, 3725, 'An hour in & still going'),
];

describe('parseCaptions: SubRip', () => {
  it('parses a realistic, sloppy SRT file', () => {
    expect(parseCaptions(REAL_SRT, 'episode.srt')).toEqual(REAL_SRT_SEGMENTS);
  });

  it('gives the same result for LF, CRLF and old-Mac CR line endings', () => {
    const lf = REAL_SRT.replace(/\r\n/g, '\n');
    const cr = lf.replace(/\n/g, '\r');
    expect(parseCaptions(lf)).toEqual(REAL_SRT_SEGMENTS);
    expect(parseCaptions(cr)).toEqual(REAL_SRT_SEGMENTS);
  });

  it('does not need a file name', () => {
    expect(parseCaptions(REAL_SRT)).toEqual(REAL_SRT_SEGMENTS);
  });

  it('sorts cues that are out of order in the file', () => {
    const srt = '2\n00:00:05,000 --> 00:00:06,000\nSecond\n\n1\n00:00:01,000 --> 00:00:02,000\nFirst\n';
    expect(parseCaptions(srt)).toEqual([seg(1, 2, 'First'), seg(5, 6, 'Second')]);
  });

  it('parses cues without any numbers and without a trailing newline', () => {
    const srt = '00:00:01,000 --> 00:00:02,000\nOne\n\n00:00:03,000 --> 00:00:04,000\nTwo';
    expect(parseCaptions(srt)).toEqual([seg(1, 2, 'One'), seg(3, 4, 'Two')]);
  });

  it('tolerates whitespace around lines and between blocks', () => {
    const srt =
      '\n\n  1  \n 00:00:01,000  -->  00:00:02,000 \n  Hi there  \n \t \n\n2\n00:00:03,000-->00:00:04,000\nBye';
    expect(parseCaptions(srt)).toEqual([seg(1, 2, 'Hi there'), seg(3, 4, 'Bye')]);
  });

  it('keeps a line of digits that really is the cue text', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\n1984\n\n2\n00:00:03,000 --> 00:00:04,000\n42\n';
    expect(parseCaptions(srt)).toEqual([seg(1, 2, '1984'), seg(3, 4, '42')]);
  });

  it('skips a cue with an unreadable timing line but keeps the others', () => {
    const srt =
      '1\n00:00:01,000 -> 00:00:02,000\nBroken arrow\n\n' +
      '2\n00:61:00,000 --> 00:62:00,000\nBad minutes\n\n' +
      '3\n00:00:03,000 --> 00:00:04,000\nGood\n';
    expect(parseCaptions(srt)).toEqual([seg(3, 4, 'Good')]);
  });

  it('drops cues whose text is only markup', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\n<i></i>\n\n2\n00:00:03,000 --> 00:00:04,000\nText\n';
    expect(parseCaptions(srt)).toEqual([seg(3, 4, 'Text')]);
  });

  it('clamps to the media duration when given', () => {
    const srt = '1\n00:00:01,000 --> 00:00:09,000\nLong\n\n2\n00:00:12,000 --> 00:00:13,000\nAfter the end\n';
    expect(parseCaptions(srt, 'a.srt', 5)).toEqual([seg(1, 5, 'Long'), seg(5, 5, 'After the end')]);
  });

  it('fixes inverted and zero-length cues through normalisation', () => {
    const srt = '1\n00:00:05,000 --> 00:00:04,000\nInverted\n\n2\n00:00:06,000 --> 00:00:06,000\nZero\n';
    expect(parseCaptions(srt)).toEqual([seg(5, 5.5, 'Inverted'), seg(6, 6.5, 'Zero')]);
  });
});

describe('parseCaptions: WebVTT', () => {
  it('parses a realistic WebVTT file', () => {
    expect(parseCaptions(REAL_VTT, 'episode.vtt')).toEqual(REAL_VTT_SEGMENTS);
  });

  it('trusts the WEBVTT header over a misleading .srt file name', () => {
    expect(parseCaptions(REAL_VTT, 'episode.srt')).toEqual(REAL_VTT_SEGMENTS);
  });

  it('handles a BOM and CRLF line endings', () => {
    expect(parseCaptions('\uFEFF' + crlf(REAL_VTT))).toEqual(REAL_VTT_SEGMENTS);
  });

  it('accepts the bare header and a cue right after it without a blank line', () => {
    expect(parseCaptions('WEBVTT\n00:00.000 --> 00:01.500\nHello')).toEqual([seg(0, 1.5, 'Hello')]);
  });

  it('skips NOTE, STYLE and REGION blocks even when they look like cues', () => {
    const vtt =
      'WEBVTT\n\nNOTE\n00:00:01.000 --> 00:00:02.000\nnot a cue\n\n' +
      'STYLE\n::cue { color: lime }\n\n00:00:03.000 --> 00:00:04.000\nreal\n';
    expect(parseCaptions(vtt)).toEqual([seg(3, 4, 'real')]);
  });

  it('keeps cue text that starts with NOTE', () => {
    const vtt = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nNOTE to self\n';
    expect(parseCaptions(vtt)).toEqual([seg(1, 2, 'NOTE to self')]);
  });

  it('uses a .vtt file name as a hint for a file without a header', () => {
    const headerless = 'NOTE exported by a broken tool\n\n00:01.000 --> 00:02.000\nHi\n';
    expect(detectCaptionFormat(headerless, 'clip.VTT')).toBe('vtt');
    expect(parseCaptions(headerless, 'clip.VTT')).toEqual([seg(1, 2, 'Hi')]);
    // Parsed as SubRip the NOTE block is garbage and skipped all the same.
    expect(parseCaptions(headerless, 'clip.srt')).toEqual([seg(1, 2, 'Hi')]);
  });
});

describe('parseCaptions: WebVTT inline timestamps give word timings', () => {
  it('times each word from the stretch it starts in', () => {
    const vtt =
      'WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n' +
      'Hello<00:00:01.500><c> big</c><00:00:02.000><c> world</c>\n';
    expect(parseCaptions(vtt)).toEqual([
      {
        start: 1,
        end: 3,
        text: 'Hello big world',
        words: [
          { start: 1, end: 1.5, text: 'Hello' },
          { start: 1.5, end: 2, text: 'big' },
          { start: 2, end: 3, text: 'world' },
        ],
      },
    ]);
  });

  it('shares a stretch between its words by length, over several lines', () => {
    const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:04.000\nab abcd\n<00:00:03.000>xy\n';
    const [segment] = parseCaptions(vtt);
    expect(segment?.text).toBe('ab abcd xy');
    expect(segment?.words).toEqual([
      { start: 0, end: 1, text: 'ab' },
      { start: 1, end: 3, text: 'abcd' },
      { start: 3, end: 4, text: 'xy' },
    ]);
  });

  it('keeps a word split by a timestamp whole, and ignores timestamps outside the cue', () => {
    const vtt = 'WEBVTT\n\n00:00:10.000 --> 00:00:12.000\nwon<00:00:11.000>der <00:00:30.000>ful\n';
    const [segment] = parseCaptions(vtt);
    expect(segment?.text).toBe('wonder ful');
    expect(segment?.words).toEqual([
      { start: 10, end: 11, text: 'wonder' },
      { start: 12, end: 12, text: 'ful' },
    ]);
  });

  it('gives no words without inline timestamps, nor for SubRip', () => {
    expect(parseCaptions('WEBVTT\n\n00:01.000 --> 00:02.000\nHi there\n')[0]?.words).toBeUndefined();
    expect(
      parseCaptions('1\n00:00:01,000 --> 00:00:02,000\nHi <00:00:01.500>there\n')[0]?.words,
    ).toBeUndefined();
  });

  it('times unspaced scripts per character', () => {
    const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n你好<00:00:01.000>世界\n';
    expect(parseCaptions(vtt)[0]?.words?.map((w) => [w.text, w.start, w.end])).toEqual([
      ['你', 0, 0.5],
      ['好', 0.5, 1],
      ['世', 1, 1.5],
      ['界', 1.5, 2],
    ]);
  });
});

describe('detectCaptionFormat', () => {
  it('sniffs the WEBVTT signature', () => {
    expect(detectCaptionFormat('WEBVTT\n\n00:01.000 --> 00:02.000\nx')).toBe('vtt');
    expect(detectCaptionFormat('\uFEFFWEBVTT')).toBe('vtt');
    expect(detectCaptionFormat('\n\nWEBVTT Title\r\n')).toBe('vtt');
    expect(detectCaptionFormat('WEBVTT\tx', 'a.srt')).toBe('vtt');
  });

  it('does not take WEBVTT-ish text for the signature', () => {
    expect(detectCaptionFormat('WEBVTTX\n')).toBe('srt');
    expect(detectCaptionFormat('1\n00:00:01,000 --> 00:00:02,000\nWEBVTT\n')).toBe('srt');
  });

  it('falls back to the file name, then SubRip', () => {
    expect(detectCaptionFormat('1\n', 'a.vtt')).toBe('vtt');
    expect(detectCaptionFormat('1\n', 'a.srt')).toBe('srt');
    expect(detectCaptionFormat('1\n', 'a.vtt.txt')).toBe('srt');
    expect(detectCaptionFormat('1\n')).toBe('srt');
  });
});

describe('parseCaptions: timestamps', () => {
  const one = (timing: string): Segment | undefined => parseCaptions(`${timing}\nx\n`)[0];

  it('reads comma and dot millisecond separators', () => {
    expect(one('00:00:01,250 --> 00:00:02.750')).toEqual(seg(1.25, 2.75, 'x'));
  });

  it('reads timestamps without hours (mm:ss.ttt), mixed with full ones', () => {
    expect(one('01:02.003 --> 00:01:05.000')).toEqual(seg(62.003, 65, 'x'));
  });

  it('reads hours beyond two digits', () => {
    expect(one('100:00:00,000 --> 100:00:01,000')).toEqual(seg(360000, 360001, 'x'));
  });

  it('treats the fraction as decimal and a missing one as zero', () => {
    expect(one('00:00:01,5 --> 00:00:02,25')).toEqual(seg(1.5, 2.25, 'x'));
    expect(one('00:00:01 --> 00:00:02')).toEqual(seg(1, 2, 'x'));
    expect(one('00:00:01.0004 --> 00:00:02.0006')).toEqual(seg(1, 2.001, 'x'));
  });

  it('ignores cue settings or coordinates after the end time', () => {
    expect(one('00:01.000 --> 00:02.000 vertical:rl size:50% line:-1')).toEqual(seg(1, 2, 'x'));
    expect(one('00:01.000 --> 00:02.000\tX1:1')).toEqual(seg(1, 2, 'x'));
  });

  it('rejects timing lines with trailing junk glued to the end time', () => {
    expect(() => one('00:00:01,000 --> 00:00:02,000abc')).toThrow(CaptionParseError);
  });
});

describe('parseCaptions: text', () => {
  const text = (body: string): string | undefined =>
    parseCaptions(`00:00:01,000 --> 00:00:02,000\n${body}\n`)[0]?.text;

  it('joins multi-line text with a space', () => {
    expect(text('first line\nsecond line\n  third  ')).toBe('first line second line third');
  });

  it('strips tags, inline timestamps and SSA overrides', () => {
    expect(text('<i>a</i> <b>b</b> <u>c</u> <c.yellow.bg_blue>d</c> <v Bob>e</v>')).toBe('a b c d e');
    expect(text('<ruby>漢<rt>kan</rt></ruby> <lang en-GB>f</lang>')).toBe('漢kan f');
    expect(text('<00:00:01.200>one <00:01.500>two')).toBe('one two');
    expect(text('{\\an8}{\\pos(10,20)}top')).toBe('top');
    expect(text('<font\ncolor="red">split tag</font>')).toBe('split tag');
  });

  it('keeps a lone "<" that does not start a tag', () => {
    expect(text('a < b and c > d')).toBe('a < b and c > d');
    expect(text('1 <2, I <3 you')).toBe('1 <2, I <3 you'); // no closing '>'
    expect(text('x <2 y> z')).toBe('x z'); // but this one reads as a tag
    expect(text('{not an override}')).toBe('{not an override}');
  });

  it('decodes the common entities, once', () => {
    expect(text('&amp; &lt; &gt; &quot; &#39; &apos;')).toBe("& < > \" ' '");
    expect(text('a&nbsp;&nbsp;b')).toBe('a b');
    expect(text('&amp;lt;i&amp;gt;')).toBe('&lt;i&gt;');
    expect(text('&lt;i&gt;shown&lt;/i&gt;')).toBe('<i>shown</i>');
    expect(text('&#x263A; &#9731; caf&#233;')).toBe('☺ ☃ café');
  });

  it('leaves unknown or invalid entities alone', () => {
    expect(text('AT&T &copy2; &bogus; &#xD800; &#0; &#99999999;')).toBe(
      'AT&T &copy2; &bogus; &#xD800; &#0; &#99999999;',
    );
  });
});

describe('parseCaptions: errors', () => {
  it('is a CaptionParseError, an Error with a name and a code', () => {
    const e = parseError('');
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('CaptionParseError');
    expect(e.code).toBe('empty');
    expect(e.message).not.toBe('');
  });

  it("reports 'empty' when there is nothing to import", () => {
    for (const input of [
      '',
      '   \n\r\n\t',
      '\uFEFF',
      'WEBVTT\n',
      'WEBVTT\n\nNOTE only a comment\n',
      '1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:03,000 --> 00:00:04,000\n<i> </i>\n',
    ]) {
      expect(parseError(input).code, JSON.stringify(input)).toBe('empty');
    }
  });

  it("reports 'invalid' for content without a single cue", () => {
    for (const [input, name] of [
      ['hello world', 'notes.srt'],
      ['{"segments": []}', 'transcript.json'],
      ['1\n00:00:01,000 - 00:00:02,000\nwrong arrow\n', 'a.srt'],
      ['some text\n\nmore text\n', 'a.vtt'],
      ['\u0000\u0001\u0002PK\u0003\u0004', undefined],
    ] as const) {
      expect(parseError(input, name).code, JSON.stringify(input)).toBe('invalid');
    }
  });
});

describe('formatTimestamp', () => {
  it('writes HH:MM:SS plus the separator and milliseconds', () => {
    expect(formatTimestamp(0, ',')).toBe('00:00:00,000');
    expect(formatTimestamp(1.5, ',')).toBe('00:00:01,500');
    expect(formatTimestamp(3723.004, '.')).toBe('01:02:03.004');
    expect(formatTimestamp(59.999, '.')).toBe('00:00:59.999');
    expect(formatTimestamp(86399.999, ',')).toBe('23:59:59,999');
  });

  it('rounds to the millisecond, carrying into seconds and minutes', () => {
    expect(formatTimestamp(0.0004, ',')).toBe('00:00:00,000');
    expect(formatTimestamp(0.0006, ',')).toBe('00:00:00,001');
    expect(formatTimestamp(59.9996, ',')).toBe('00:01:00,000');
    expect(formatTimestamp(3599.9999, '.')).toBe('01:00:00.000');
  });

  it('lets hours grow past two digits', () => {
    expect(formatTimestamp(360000, ',')).toBe('100:00:00,000');
  });

  it('writes negative and non-finite values as zero', () => {
    for (const v of [-1, -0.0001, NaN, Infinity, -Infinity]) {
      expect(formatTimestamp(v, ','), String(v)).toBe('00:00:00,000');
    }
  });
});

describe('formatSrt / formatVtt', () => {
  const list = [seg(1.6, 4.2, 'Hello there.'), seg(3725.5, 3727, 'Fish & chips')];

  it('writes SubRip', () => {
    expect(formatSrt(list)).toBe(
      '1\n00:00:01,600 --> 00:00:04,200\nHello there.\n\n' +
        '2\n01:02:05,500 --> 01:02:07,000\nFish & chips\n\n',
    );
  });

  it('writes WebVTT with escaped text', () => {
    expect(formatVtt(list)).toBe(
      'WEBVTT\n\n' +
        '00:00:01.600 --> 00:00:04.200\nHello there.\n\n' +
        '01:02:05.500 --> 01:02:07.000\nFish &amp; chips\n',
    );
    expect(formatVtt([seg(0, 1, 'a <b> c --> d')])).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\na &lt;b&gt; c --&gt; d\n',
    );
  });

  it('writes nothing but the header for no segments', () => {
    expect(formatSrt([])).toBe('');
    expect(formatVtt([])).toBe('WEBVTT\n');
  });

  it('keeps every cue on one line and skips blank ones, numbering consecutively', () => {
    const messy = [seg(0, 1, 'a\n\nb'), seg(1, 2, '  \n '), seg(2, 3, 'c')];
    expect(formatSrt(messy)).toBe(
      '1\n00:00:00,000 --> 00:00:01,000\na b\n\n2\n00:00:02,000 --> 00:00:03,000\nc\n\n',
    );
    expect(formatVtt(messy)).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\na b\n\n00:00:02.000 --> 00:00:03.000\nc\n',
    );
  });

  it('escapes in SubRip only what would otherwise be read as markup', () => {
    expect(formatSrt([seg(0, 1, 'AT&T <3 a < b &amp; <i>x</i> {\\an8}')])).toContain(
      '\nAT&T <3 a < b &amp;amp; &lt;i>x&lt;/i> &#123;\\an8}\n',
    );
  });
});

describe('round trip', () => {
  const TRICKY = normalizeSegments([
    seg(0, 0.5, 'Plain text.'),
    seg(0.5, 1.25, 'AT&T & R&D; said "hi" & \'bye\''),
    seg(1, 2, 'Literal &amp; and &lt;i&gt; and &#39; and &nbsp;'),
    seg(2, 3, 'Tags as text: <i>not italic</i> <00:00:01.000> <v Bob>'),
    seg(3, 4, 'a < b > c, 1<2, x -> y --> z'),
    seg(4, 5, '{\\an8} stays {literally}'),
    seg(5, 6, '00:00:01,000 --> 00:00:02,000'),
    seg(6, 7, '00:01.000 --> 00:02.000 align:start'),
    seg(7, 8, '42'),
    seg(8, 9, 'NOTE this is dialogue'),
    seg(9, 10, 'WEBVTT'),
    seg(10, 11, 'Ünïcödé 漢字 😀 עברית'),
    seg(11, 11.001, 'one millisecond'),
    seg(3723.004, 3725.999, 'an hour in'),
    seg(360000, 360000.5, 'a hundred hours in'),
  ]);

  it('normalised segments survive SubRip', () => {
    expect(parseCaptions(formatSrt(TRICKY))).toEqual(TRICKY);
  });

  it('normalised segments survive WebVTT', () => {
    expect(parseCaptions(formatVtt(TRICKY))).toEqual(TRICKY);
  });

  it('holds for lists normalised with a duration when parsed with the same duration', () => {
    const list = normalizeSegments([seg(1, 2, 'in'), seg(8, 12, 'over'), seg(11, 12, 'past')], 10);
    expect(list).toEqual([seg(1, 2, 'in'), seg(8, 10, 'over'), seg(10, 10, 'past')]);
    expect(parseCaptions(formatSrt(list), 'x.srt', 10)).toEqual(list);
    expect(parseCaptions(formatVtt(list), 'x.vtt', 10)).toEqual(list);
    // Without the duration the zero-length cue at the end gets its minimum length back.
    expect(parseCaptions(formatSrt(list)).at(-1)).toEqual(seg(10, 10.5, 'past'));
  });

  it('both realistic samples survive both formats', () => {
    // The serializers write cue text only: word timings are not part of the round trip.
    const textOnly = REAL_VTT_SEGMENTS.map(({ start, end, text }) => ({ start, end, text }));
    for (const list of [REAL_SRT_SEGMENTS, textOnly]) {
      expect(parseCaptions(formatSrt(list))).toEqual(list);
      expect(parseCaptions(formatVtt(list))).toEqual(list);
    }
  });

  it('holds for random lists of awkward text (seeded)', () => {
    let state = 0x2f6b1d;
    const rand = (): number => {
      // mulberry32
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pieces = [
      'a',
      'Z',
      '7',
      ' ',
      '\n',
      '&',
      ';',
      '#',
      'x',
      '<',
      '>',
      '/',
      '{',
      '}',
      '\\',
      '-->',
      'é',
      '😀',
    ];
    for (let run = 0; run < 200; run++) {
      const raw: Segment[] = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => {
        const start = rand() * 7200;
        const text = Array.from(
          { length: 1 + Math.floor(rand() * 12) },
          () => pieces[Math.floor(rand() * pieces.length)],
        ).join('');
        return seg(start, start + rand() * 10, text);
      });
      const list = normalizeSegments(raw);
      if (list.length === 0) continue;
      // A caption file cannot tell a typed line break from a wrapped line: it comes back a space.
      const flat = list.map((s) => ({ ...s, text: s.text.replace(/\n/g, ' ') }));
      expect(parseCaptions(formatSrt(list)), JSON.stringify(list)).toEqual(flat);
      expect(parseCaptions(formatVtt(list)), JSON.stringify(list)).toEqual(flat);
    }
  });
});

describe('parseCaptionTranscript: speakers from caption files', () => {
  it('reads WebVTT voice tags as speakers, names as written, in order of appearance', () => {
    const vtt =
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Alice>Hello <b>there</b></v>\n\n' +
      '00:00:02.500 --> 00:00:04.000\n<v.loud Bob Smith>Hi &amp; welcome\n\n' +
      '00:00:05.000 --> 00:00:06.000\n<v Alice>Thanks\n\n' +
      '00:00:07.000 --> 00:00:08.000\nNo voice here\n';
    const { segments, speakers } = parseCaptionTranscript(vtt, 'talk.vtt');
    expect(speakers).toEqual([
      { id: 's1', name: 'Alice', color: SPEAKER_COLORS[0] },
      { id: 's2', name: 'Bob Smith', color: SPEAKER_COLORS[1] },
    ]);
    expect(segments).toEqual([
      { start: 1, end: 2, text: 'Hello there', speaker: 's1' },
      { start: 2.5, end: 4, text: 'Hi & welcome', speaker: 's2' },
      { start: 5, end: 6, text: 'Thanks', speaker: 's1' },
      { start: 7, end: 8, text: 'No voice here' },
    ]);
  });

  it('reads SubRip "Name: text" prefixes when at least two cues have one', () => {
    const srt =
      '1\n00:00:01,000 --> 00:00:02,000\nALICE: Hello\n\n' +
      '2\n00:00:02,000 --> 00:00:03,000\n>> Dr. Who: Hi\n\n' +
      '3\n00:00:03,000 --> 00:00:04,000\nSpeaker 3: Yes\n\n' +
      '4\n00:00:04,000 --> 00:00:05,000\nHe said: nothing at 10:30\n';
    const { segments, speakers } = parseCaptionTranscript(srt, 'talk.srt');
    expect(speakers.map((s) => s.name)).toEqual(['ALICE', 'Dr. Who', 'Speaker 3']);
    expect(segments.map((s) => [s.speaker, s.text])).toEqual([
      ['s1', 'Hello'],
      ['s2', 'Hi'],
      ['s3', 'Yes'],
      [undefined, 'He said: nothing at 10:30'],
    ]);
    // A lone 'Note:' is text, not a speaker.
    const lone = parseCaptionTranscript('1\n00:00:01,000 --> 00:00:02,000\nNote: this\n\n', 'a.srt');
    expect(lone).toEqual({ segments: [{ start: 1, end: 2, text: 'Note: this' }], speakers: [] });
  });

  it('gives back what the speaker exports wrote (round trip)', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\nAnn: Hi\n\n2\n00:00:02,000 --> 00:00:03,000\nBen: Yo\n\n';
    expect(parseCaptionTranscript(srt).segments.map((s) => s.speaker)).toEqual(['s1', 's2']);
    const vtt = formatVttCues(
      [
        { start: 1, end: 2, lines: ['Hi'], speaker: 'a' },
        { start: 2, end: 3, lines: ['Yo'], speaker: 'b' },
      ],
      new Map([
        ['a', 'Ann <A&A>'],
        ['b', 'Ben'],
      ]),
    );
    const back = parseCaptionTranscript(vtt);
    expect(back.speakers.map((s) => s.name)).toEqual(['Ann <A&A>', 'Ben']);
    expect(back.segments.map((s) => s.text)).toEqual(['Hi', 'Yo']);
  });

  it('a file without speakers gives what parseCaptions gives', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\nHello\n\n';
    expect(parseCaptionTranscript(srt)).toEqual({ segments: parseCaptions(srt), speakers: [] });
    expect(() => parseCaptionTranscript('nothing')).toThrow(CaptionParseError);
  });
});
