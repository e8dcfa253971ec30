import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildDocx } from './exports-docx';
import type { Segment } from './segments';

async function documentXml(name: string, segments: Segment[], productName = 'ClipScribe') {
  const files = unzipSync(await buildDocx({ name, segments, productName }));
  return { files, xml: strFromU8(files['word/document.xml']!) };
}

/** The <w:p> elements of the body, in order. */
const paragraphs = (xml: string): string[] => xml.match(/<w:p>.*?<\/w:p>/g) ?? [];
/** The text of a paragraph (its <w:t> contents joined, a <w:br/> as '\n'). */
const textOf = (p: string): string =>
  [...p.matchAll(/<w:br\/>|<w:t[^>]*>([^<]*)<\/w:t>/g)]
    .map((m) => (m[0] === '<w:br/>' ? '\n' : m[1]))
    .join('');

const SEGMENTS: Segment[] = [
  { start: 1.4, end: 4.2, text: 'Hello there' },
  { start: 4.5, end: 5, text: '   ' },
  { start: 5, end: 9.9, text: 'General Kenobi' },
  { start: 3725, end: 3731, text: 'An hour later' },
];

describe('buildDocx', () => {
  it('is a Word package with the usual parts', async () => {
    const { files } = await documentXml('Meeting', SEGMENTS);
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(['[Content_Types].xml', '_rels/.rels', 'word/document.xml', 'word/styles.xml']),
    );
    expect(strFromU8(files['docProps/core.xml']!)).toContain('<dc:title>Meeting</dc:title>');
  });

  it('starts with a centred bold Heading 1 holding the name', async () => {
    const { xml } = await documentXml('Weekly meeting', SEGMENTS);
    const heading = paragraphs(xml)[0]!;
    expect(heading).toContain('<w:pStyle w:val="Heading1"/>');
    expect(heading).toContain('<w:jc w:val="center"/>');
    expect(heading).toMatch(/<w:r><w:rPr><w:b\/>.*<w:t xml:space="preserve">Weekly meeting<\/w:t><\/w:r>/);
  });

  it('writes each segment as its (start - end) line and its text at size 24, skipping blank ones', async () => {
    const { xml } = await documentXml('Meeting', SEGMENTS);
    const body = paragraphs(xml).slice(1, -1);
    expect(body.map(textOf)).toEqual([
      '(0:01 - 0:04)\nHello there',
      '(0:05 - 0:09)\nGeneral Kenobi',
      '(1:02:05 - 1:02:11)\nAn hour later',
    ]);
    for (const p of body) {
      const runs = p.match(/<w:r>.*?<\/w:r>/g) ?? [];
      expect(runs).toHaveLength(2);
      for (const run of runs) expect(run).toContain('<w:sz w:val="24"/>');
      // Left-to-right text gets no direction property at all.
      expect(p).not.toContain('<w:bidi');
    }
  });

  it('ends with a line crediting the service', async () => {
    const { xml } = await documentXml('Meeting', SEGMENTS, 'ClipScribe');
    const last = paragraphs(xml).at(-1)!;
    expect(textOf(last)).toBe('Transcribed with ClipScribe');
    const other = await documentXml('Meeting', SEGMENTS, 'Acme Notes');
    expect(textOf(paragraphs(other.xml).at(-1)!)).toBe('Transcribed with Acme Notes');
  });

  it('has only the heading and the credit when no segment has text', async () => {
    const { xml } = await documentXml('Empty', [{ start: 0, end: 1, text: ' ' }]);
    expect(paragraphs(xml).map(textOf)).toEqual(['Empty', 'Transcribed with ClipScribe']);
  });

  it('escapes markup and drops characters XML cannot hold', async () => {
    const { xml } = await documentXml('Q&A <live>', [
      { start: 0, end: 1, text: 'a < b && c > d "quoted"' },
      { start: 1, end: 2, text: 'bell\u0007 here' },
    ]);
    const [heading, first, second] = paragraphs(xml);
    expect(heading).toContain('>Q&amp;A &lt;live&gt;</w:t>');
    expect(first).toContain('>a &lt; b &amp;&amp; c &gt; d "quoted"</w:t>');
    expect(textOf(second!)).toBe('(0:01 - 0:02)\nbell here');
  });

  it('keeps Unicode and right-to-left text as is, marking RTL paragraphs right-to-left', async () => {
    const { xml } = await documentXml('مقابلة', [
      { start: 0, end: 2, text: 'مرحبا بالعالم' },
      { start: 2, end: 4, text: 'שלום עולם' },
      { start: 4, end: 6, text: 'Grüße 你好 👋🏽' },
    ]);
    const [heading, arabic, hebrew, latin] = paragraphs(xml);
    expect(heading).toContain('<w:bidi/>');
    expect(textOf(heading!)).toBe('مقابلة');
    expect(arabic).toContain('<w:bidi/>');
    expect(textOf(arabic!)).toBe('(0:00 - 0:02)\nمرحبا بالعالم');
    expect(hebrew).toContain('<w:bidi/>');
    expect(textOf(hebrew!)).toBe('(0:02 - 0:04)\nשלום עולם');
    expect(latin).not.toContain('<w:bidi');
    expect(textOf(latin!)).toBe('(0:04 - 0:06)\nGrüße 你好 👋🏽');
    // No bidi control characters are added to the text.
    expect(xml).not.toMatch(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
  });

  it('builds 10,000 segments', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ start: i, end: i + 0.9, text: `Line ${i}` }));
    const { xml } = await documentXml('Long', many);
    const all = paragraphs(xml);
    expect(all).toHaveLength(10_002);
    expect(textOf(all[10_000]!)).toBe('(2:46:39 - 2:46:39)\nLine 9999');
  });
});
