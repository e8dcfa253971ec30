import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderStyleSchema } from '../../../common/render-options';
import { assColour, assTime, buildAss, escapeAssText, scriptRuns } from './ass';
import { allFontFiles } from './fonts';
import { fitFilter, outputFrame } from './geometry';
import { renderArgs } from './ffmpeg';

const style = (s: object = {}) => renderStyleSchema.parse(s);
const frame = { width: 1280, height: 720 };

describe('ASS subtitle file', () => {
  it('escapes text so it never becomes a tag, a line break or a hard space', () => {
    expect(escapeAssText('a {\\b1} \\N b\nc')).toBe('a \\{\\\u2060b1\\} \\\u2060N b c');
  });

  it('writes colours as &HAABBGGRR and times as H:MM:SS.cc', () => {
    expect(assColour('#ffd400')).toBe('&H0000D4FF');
    expect(assColour('#112233', 0x40)).toBe('&H40332211');
    expect(assTime(3725.456)).toBe('1:02:05.46');
  });

  it('cuts text into script runs, neutral characters staying with their run', () => {
    expect(scriptRuns('Hi 日本語です。 ok', 'ja')).toEqual([
      { script: 'latin', text: 'Hi ' },
      { script: 'ja', text: '日本語です。 ' },
      { script: 'latin', text: 'ok' },
    ]);
    expect(scriptRuns('«مرحبا» 123', 'zh').map((r) => r.script)).toEqual(['arabic']);
  });

  it('names our faces per script and the Han face by language', () => {
    const doc = buildAss({
      segments: [{ start: 0, end: 2, text: '中文 and عربي and ไทย and हिन्दी and 한국어' }],
      speakers: [],
      language: 'zh',
      style: style({ font: 'serif' }),
      frame,
      offset: 0,
      duration: 2,
      watermark: null,
    });
    expect(doc.text).toContain('Style: Caption,Noto Serif,');
    expect(doc.text).toContain('{\\fnNotoSansHans-Regular}中文');
    expect(doc.text).toContain('{\\fnNoto Naskh Arabic}عربي');
    expect(doc.text).toContain('{\\fnNoto Sans Thai}ไทย');
    expect(doc.text).toContain('{\\fnNoto Sans Devanagari}हिन्दी');
    expect(doc.text).toContain('{\\fnNotoSansKR-Regular}한국어');
    expect([...doc.scripts].sort()).toEqual(['arabic', 'devanagari', 'ko', 'latin', 'thai', 'zh']);
    expect(doc.text).not.toContain('Mark,,');
  });

  it('karaoke: one \\k per word from the stored timings, the clip offset applied, a mark when asked', () => {
    const doc = buildAss({
      segments: [
        {
          start: 10,
          end: 12,
          text: 'one two three',
          words: [
            { start: 10.2, end: 10.5, text: 'one' },
            { start: 10.5, end: 11.1, text: 'two' },
            { start: 11.1, end: 12, text: 'three' },
          ],
        },
      ],
      speakers: [],
      language: 'en',
      style: style({ preset: 'karaoke' }),
      frame,
      offset: 10,
      duration: 2,
      watermark: 'Made with ClipScribe',
    });
    expect(doc.text).toContain(
      'Dialogue: 0,0:00:00.20,0:00:02.00,Caption,,0,0,0,,{\\k30}one {\\k60}two {\\k90}three',
    );
    expect(doc.text).toContain('Dialogue: 1,0:00:00.00,0:00:03.00,Mark,,0,0,0,,Made with ClipScribe');
  });

  it('speaker colours replace the text colour', () => {
    const doc = buildAss({
      segments: [{ start: 0, end: 1, text: 'Hi', speaker: 's1' }],
      speakers: [{ id: 's1', name: 'Ann', color: '#2563eb' }],
      language: 'en',
      style: style({ speaker_colors: true }),
      frame,
      offset: 0,
      duration: 1,
      watermark: null,
    });
    expect(doc.text).toContain(',,{\\1c&HEB6325&}Hi');
  });

  it('every face we name is installed with the project', () => {
    for (const file of allFontFiles()) expect(existsSync(file), file).toBe(true);
  });
});

describe('output frame', () => {
  it('caps the short side and keeps sizes even', () => {
    expect(outputFrame({ width: 1920, height: 1080 }, 'original', 720)).toEqual({ width: 1280, height: 720 });
    expect(outputFrame({ width: 1920, height: 1080 }, '9:16', 720)).toEqual({ width: 720, height: 1280 });
    expect(outputFrame({ width: 1920, height: 1080 }, '1:1', 1080)).toEqual({ width: 1080, height: 1080 });
    expect(outputFrame({ width: 641, height: 361 }, 'original', 1080)).toEqual({ width: 642, height: 362 });
    expect(fitFilter({ width: 720, height: 1280 }, 'crop')).toMatch(/^crop=.*,scale=720:1280,setsar=1$/);
  });

  it('never puts a path with filter characters into the graph', () => {
    const cmd = {
      input: '/tmp/in.mp4',
      hasVideo: true,
      offset: 0,
      duration: 1,
      frame,
      fit: 'crop' as const,
      background: '#000000',
      assFile: "/tmp/x:force_style='a'/c.ass",
      fontsDir: '/tmp/f',
      output: '/tmp/o.mp4',
      maxBytes: 1,
    };
    expect(() => renderArgs(cmd)).toThrow(/filter graph/);
  });
});
