import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Segment } from '../../../common/segments';
import type { Speaker } from '../../../common/speakers';
import { buildExport, type ExportSource } from './build';

const SPEAKERS: Speaker[] = [
  { id: 's1', name: 'Alice', color: '#2563eb' },
  { id: 's2', name: 'Bob <B&B>', color: '#dc2626' },
];
const SEGMENTS: Segment[] = [
  { start: 1, end: 3.5, text: 'Hello there', speaker: 's1' },
  {
    start: 4,
    end: 8,
    text: 'General Kenobi. You are a bold one.',
    speaker: 's2',
    words: [
      { start: 4, end: 4.6, text: 'General' },
      { start: 4.6, end: 5.4, text: 'Kenobi.' },
      { start: 6, end: 6.3, text: 'You', speaker: 's1' },
      { start: 6.3, end: 6.6, text: 'are', speaker: 's1' },
      { start: 6.6, end: 6.8, text: 'a', speaker: 's1' },
      { start: 6.8, end: 7.2, text: 'bold', speaker: 's1' },
      { start: 7.2, end: 7.8, text: 'one.', speaker: 's1' },
    ],
  },
  { start: 9, end: 10, text: 'Nobody named' },
];
const PLAIN: Segment[] = SEGMENTS.map(({ start, end, text }) => ({ start, end, text }));
/** The same segments with their word timings, and no speaker anywhere. */
const UNNAMED: Segment[] = SEGMENTS.map(({ start, end, text, words }) =>
  words
    ? { start, end, text, words: words.map((w) => ({ start: w.start, end: w.end, text: w.text })) }
    : { start, end, text },
);

const source = (speakers?: Speaker[], segments = SEGMENTS): ExportSource => ({
  name: 'Talk',
  segments,
  durationSec: 12,
  language: 'en',
  speakers,
});
const opts = { productName: 'ClipScribe' };
const text = async (s: ExportSource, format: 'txt' | 'srt' | 'vtt' | 'json', more = {}) =>
  (await buildExport(s, format, { ...opts, ...more })).body as string;

describe('exports with speakers (exact bytes)', () => {
  it('txt: "Name: " before each segment, cut where the speaker changes', async () => {
    expect(await text(source(SPEAKERS), 'txt')).toBe(
      'Alice: Hello there\n\nBob <B&B>: General Kenobi.\n\nAlice: You are a bold one.\n\nNobody named\n',
    );
    expect(await text(source(SPEAKERS), 'txt', { timestamps: true })).toBe(
      '0:01 - 0:03\nAlice: Hello there\n\n0:04 - 0:06\nBob <B&B>: General Kenobi.\n\n' +
        '0:06 - 0:08\nAlice: You are a bold one.\n\n0:09 - 0:10\nNobody named\n',
    );
  });

  it('srt: "Name: text" in every cue, one speaker per cue', async () => {
    expect(await text(source(SPEAKERS), 'srt', { cues: 'segment' })).toBe(
      '1\n00:00:01,000 --> 00:00:03,500\nAlice: Hello there\n\n' +
        '2\n00:00:04,000 --> 00:00:06,000\nBob &lt;B&B>: General Kenobi.\n\n' +
        '3\n00:00:06,000 --> 00:00:08,000\nAlice: You are a bold one.\n\n' +
        '4\n00:00:09,000 --> 00:00:10,000\nNobody named\n\n',
    );
    expect(await text(source(SPEAKERS), 'srt')).toBe(
      '1\n00:00:01,000 --> 00:00:03,500\nAlice: Hello there\n\n' +
        '2\n00:00:04,000 --> 00:00:05,400\nBob &lt;B&B>: General Kenobi.\n\n' +
        '3\n00:00:06,000 --> 00:00:07,800\nAlice: You are a bold one.\n\n' +
        '4\n00:00:09,000 --> 00:00:10,000\nNobody named\n\n',
    );
  });

  it('srt: the name counts in the line length (subtitle cues wrap with it)', async () => {
    const long: Segment[] = [
      { start: 0, end: 6, text: 'This sentence is long enough to need a second line', speaker: 's1' },
    ];
    expect(await text(source(SPEAKERS, long), 'srt')).toBe(
      '1\n00:00:00,000 --> 00:00:06,000\nAlice: This sentence is long\nenough to need a second line\n\n',
    );
  });

  it('vtt: a voice tag per cue, escaped', async () => {
    expect(await text(source(SPEAKERS), 'vtt', { cues: 'segment' })).toBe(
      'WEBVTT\n\n' +
        '00:00:01.000 --> 00:00:03.500\n<v Alice>Hello there\n\n' +
        '00:00:04.000 --> 00:00:06.000\n<v Bob &lt;B&amp;B&gt;>General Kenobi.\n\n' +
        '00:00:06.000 --> 00:00:08.000\n<v Alice>You are a bold one.\n\n' +
        '00:00:09.000 --> 00:00:10.000\nNobody named\n',
    );
  });

  it('json: the speaker list (ids and names) and an id per segment and word', async () => {
    const doc = JSON.parse(await text(source(SPEAKERS), 'json'));
    expect(doc.speakers).toEqual([
      { id: 's1', name: 'Alice' },
      { id: 's2', name: 'Bob <B&B>' },
    ]);
    expect(Object.keys(doc)).toEqual(['name', 'duration', 'language', 'speakers', 'segments']);
    expect(doc.segments.map((s: Segment) => s.speaker)).toEqual(['s1', 's2', undefined]);
    expect(doc.segments[1].words[2]).toEqual({ start: 6, end: 6.3, text: 'You', speaker: 's1' });
    expect(await text(source(SPEAKERS), 'json')).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });

  it('docx: "Name: " in bold before the text, after the time line', async () => {
    const file = await buildExport(source(SPEAKERS), 'docx', opts);
    const xml = strFromU8(unzipSync(file.body as Uint8Array)['word/document.xml']!);
    const paragraphs = xml.match(/<w:p>.*?<\/w:p>/g)!.slice(1, -1);
    expect(paragraphs).toHaveLength(4);
    expect(paragraphs[1]).toBe(
      '<w:p><w:pPr><w:keepLines/><w:spacing w:after="160"/></w:pPr>' +
        '<w:r><w:rPr><w:sz w:val="24"/><w:szCs w:val="24"/></w:rPr><w:t xml:space="preserve">(0:04 - 0:06)</w:t></w:r>' +
        '<w:r><w:rPr><w:b/><w:bCs/><w:sz w:val="24"/><w:szCs w:val="24"/></w:rPr><w:br/><w:t xml:space="preserve">Bob &lt;B&amp;B&gt;: </w:t></w:r>' +
        '<w:r><w:rPr><w:sz w:val="24"/><w:szCs w:val="24"/></w:rPr><w:t xml:space="preserve">General Kenobi.</w:t></w:r></w:p>',
    );
    // A segment nobody is named for looks as it does without speakers.
    expect(paragraphs[3]).toBe(
      '<w:p><w:pPr><w:keepLines/><w:spacing w:after="160"/></w:pPr>' +
        '<w:r><w:rPr><w:sz w:val="24"/><w:szCs w:val="24"/></w:rPr><w:t xml:space="preserve">(0:09 - 0:10)</w:t></w:r>' +
        '<w:r><w:rPr><w:sz w:val="24"/><w:szCs w:val="24"/></w:rPr><w:br/><w:t xml:space="preserve">Nobody named</w:t></w:r></w:p>',
    );
  });
});

describe('exports without speakers are exactly as before', () => {
  for (const format of ['txt', 'srt', 'vtt', 'json'] as const) {
    it(`${format}: no list or an empty one changes nothing, stray speaker ids included`, async () => {
      const before = await text(source(undefined, UNNAMED), format);
      expect(await text(source([], UNNAMED), format)).toBe(before);
      expect(await text(source([], SEGMENTS), format)).toBe(before);
      expect(await text(source(undefined, SEGMENTS), format)).toBe(before);
    });
  }

  it('the documented shapes', async () => {
    expect(await text(source(undefined, PLAIN), 'txt')).toBe(
      'Hello there\n\nGeneral Kenobi. You are a bold one.\n\nNobody named\n',
    );
    expect(await text(source(undefined, PLAIN), 'vtt', { cues: 'segment' })).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:03.500\nHello there\n\n' +
        '00:00:04.000 --> 00:00:08.000\nGeneral Kenobi. You are a bold one.\n\n' +
        '00:00:09.000 --> 00:00:10.000\nNobody named\n',
    );
  });

  it('docx: the same document.xml', async () => {
    const xmlOf = async (s: ExportSource) =>
      strFromU8(unzipSync((await buildExport(s, 'docx', opts)).body as Uint8Array)['word/document.xml']!);
    const before = await xmlOf(source(undefined, UNNAMED));
    expect(await xmlOf(source([], SEGMENTS))).toBe(before);
    expect(await xmlOf(source(undefined, PLAIN))).toBe(before);
  });
});
