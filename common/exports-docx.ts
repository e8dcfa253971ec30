// The .docx export (docs/product.md#exports): a centred bold Heading 1 with the transcript name, then one
// paragraph per segment — its '(start - end)' line and, after a line break, its text — at 12 pt,
// and a last line crediting the service. Built with `docx` and `fflate`, both of which run in
// Node and in the browser.
//
// Why a template: `docx` builds an object tree per paragraph and serialises it through a generic
// XML writer, about 0.1 ms and a dozen objects per segment — close to a second of blocked event
// loop for a 10,000-segment transcript. So `docx` writes the document once with a template
// paragraph per direction (placeholders for the time and the text), and the segments are
// stamped out of that template's XML as strings. The XML is still docx's own; only the escaped
// segment strings are ours.

import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { exportableSegments, speakerLines, timeRange } from './exports';
import type { Segment } from './segments';
import type { Speaker } from './speakers';
import { chapterClock, type Chapter } from './insights';

/** Font size of the segment lines, in half-points (12 pt). */
export const DOCX_TEXT_SIZE = 24;
const CREDIT_SIZE = 20;
const DOCUMENT_XML = 'word/document.xml';

// XML 1.0 forbids most C0 controls, U+FFFE/U+FFFF and unpaired surrogates; one of them in
// document.xml and Word refuses to open the file, so they are dropped.
const XML_INVALID =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const xmlText = (s: string): string => s.replace(XML_INVALID, '');

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
/** Character data for a <w:t> element (what docx would write for the same text). */
const escapeXml = (s: string): string => xmlText(s).replace(/[&<>]/g, (ch) => XML_ESCAPES[ch] ?? ch);

// The first letter decides the paragraph direction (roughly Unicode bidi rule P2, as a text editor
// would): a right-to-left paragraph puts punctuation and the time line where RTL readers expect.
// Only paragraph properties change; the text itself is written as given, without bidi marks.
const FIRST_LETTER = /\p{L}/u;
const RTL_LETTER =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/u;
const isRtl = (text: string): boolean => RTL_LETTER.test(FIRST_LETTER.exec(text)?.[0] ?? '');

const segmentParagraph = (time: string, text: string, rtl: boolean, speaker?: string): Paragraph =>
  new Paragraph({
    // Omitted rather than false, which docx writes out as <w:bidi w:val="false"/>.
    bidirectional: rtl || undefined,
    spacing: { after: 160 },
    // The time line never ends up alone at the bottom of a page.
    keepLines: true,
    children: [
      new TextRun({ text: time, size: DOCX_TEXT_SIZE }),
      ...(speaker === undefined
        ? [new TextRun({ text, size: DOCX_TEXT_SIZE, break: 1 })]
        : [
            // 'Name: ' in bold, then the text on the same line.
            new TextRun({ text: speaker, size: DOCX_TEXT_SIZE, bold: true, break: 1 }),
            new TextRun({ text, size: DOCX_TEXT_SIZE }),
          ]),
    ],
  });

interface Template {
  /** The whole template paragraph, as docx wrote it. */
  xml: string;
  /** The XML around the placeholders: before the first, between each two, after the last. */
  parts: string[];
}

/** Cut a template paragraph (found by its placeholders, in order) out of document.xml. */
function findTemplate(documentXml: string, ...marks: string[]): Template {
  const at: number[] = [];
  for (const mark of marks) at.push(documentXml.indexOf(mark, at.at(-1) ?? 0));
  const start = documentXml.lastIndexOf('<w:p>', at[0]);
  const end = documentXml.indexOf('</w:p>', at.at(-1));
  if (at.some((i) => i < 0) || start < 0 || end < 0) {
    throw new Error('buildDocx: template paragraph not found in the generated document');
  }
  const stop = end + '</w:p>'.length;
  const parts = [documentXml.slice(start, at[0])];
  marks.forEach((mark, k) => parts.push(documentXml.slice(at[k]! + mark.length, at[k + 1] ?? stop)));
  return { xml: documentXml.slice(start, stop), parts };
}

export interface DocxExportSource {
  name: string;
  segments: readonly Segment[];
  /** The service credited on the last line ('Transcribed with <productName>'). */
  productName: string;
  /** With speakers, a named segment's text starts with 'Name: ' in bold. */
  speakers?: readonly Speaker[];
  /** Chapters, when made: listed under the title ('00:00 Title — summary'), before the text. */
  chapters?: readonly Chapter[];
}

/** The .docx file. Segments with blank text are skipped, as in every other format. */
export async function buildDocx({
  name,
  segments,
  productName,
  speakers,
  chapters,
}: DocxExportSource): Promise<Uint8Array<ArrayBuffer>> {
  // Without speakers the document is built exactly as it always was.
  const named = speakers?.length ? speakerLines(segments, speakers) : null;
  const title = xmlText(name);
  const product = xmlText(productName);
  // Random, so no title or product name can contain a placeholder; letters and digits only, so
  // docx writes them unescaped.
  const nonce = `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  const mark = (what: string): string => `CLIPSCRIBE${what}${nonce}`;
  const doc = new Document({
    creator: product,
    title,
    sections: [
      {
        children: [
          new Paragraph({
            heading: HeadingLevel.HEADING_1,
            alignment: AlignmentType.CENTER,
            bidirectional: isRtl(title) || undefined,
            children: [new TextRun({ text: title, bold: true })],
          }),
          ...(chapters ?? []).map(
            (c, i) =>
              new Paragraph({
                bidirectional: isRtl(c.title) || undefined,
                spacing: i === chapters!.length - 1 ? { after: 240 } : undefined,
                children: [
                  new TextRun({ text: `${chapterClock(i === 0 ? 0 : c.start)} `, color: '808080' }),
                  new TextRun({ text: xmlText(c.title), bold: true }),
                  ...(c.summary ? [new TextRun({ text: ` — ${xmlText(c.summary)}` })] : []),
                ],
              }),
          ),
          segmentParagraph(mark('LTRTIME'), mark('LTRTEXT'), false),
          segmentParagraph(mark('RTLTIME'), mark('RTLTEXT'), true),
          ...(named
            ? [
                segmentParagraph(mark('LTRSTIME'), mark('LTRSTEXT'), false, mark('LTRSNAME')),
                segmentParagraph(mark('RTLSTIME'), mark('RTLSTEXT'), true, mark('RTLSNAME')),
              ]
            : []),
          new Paragraph({
            spacing: { before: 240 },
            children: [
              new TextRun({
                text: `Transcribed with ${product}`,
                italics: true,
                size: CREDIT_SIZE,
                color: '808080',
              }),
            ],
          }),
        ],
      },
    ],
  });

  const files = unzipSync(await Packer.pack(doc, 'uint8array'));
  const documentFile = files[DOCUMENT_XML];
  if (!documentFile) throw new Error(`buildDocx: ${DOCUMENT_XML} missing from the generated document`);
  const xml = strFromU8(documentFile);
  const ltr = findTemplate(xml, mark('LTRTIME'), mark('LTRTEXT'));
  const rtl = findTemplate(xml, mark('RTLTIME'), mark('RTLTEXT'));
  const ltrNamed = named ? findTemplate(xml, mark('LTRSTIME'), mark('LTRSNAME'), mark('LTRSTEXT')) : null;
  const rtlNamed = named ? findTemplate(xml, mark('RTLSTIME'), mark('RTLSNAME'), mark('RTLSTEXT')) : null;

  const body: string[] = [];
  for (const seg of named ? named.segments : segments) {
    const [out] = exportableSegments([seg]);
    if (!out) continue;
    const rtlText = isRtl(out.text);
    const time = escapeXml(`(${timeRange(out)})`);
    const name = named?.nameOf(seg);
    if (name && ltrNamed && rtlNamed) {
      const [before, afterTime, afterName, after] = (rtlText ? rtlNamed : ltrNamed).parts;
      body.push(before!, time, afterTime!, escapeXml(`${name}: `), afterName!, escapeXml(out.text), after!);
    } else {
      const [before, between, after] = (rtlText ? rtl : ltr).parts;
      body.push(before!, time, between!, escapeXml(out.text), after!);
    }
  }
  // The templates are adjacent: replace them all with the segments.
  const templates = ltr.xml + rtl.xml + (ltrNamed?.xml ?? '') + (rtlNamed?.xml ?? '');
  const at = xml.indexOf(templates);
  if (at < 0) throw new Error('buildDocx: template paragraphs are not adjacent');
  const out = xml.slice(0, at) + body.join('') + xml.slice(at + templates.length);

  // Same entries, same order, only document.xml replaced; level 6 as docx itself uses.
  const zippable: Zippable = {};
  for (const [path, data] of Object.entries(files)) {
    zippable[path] = path === DOCUMENT_XML ? strToU8(out) : data;
  }
  // fflate allocates its output with `new Uint8Array(n)`: never a SharedArrayBuffer, so the
  // narrower type (which Response and Blob accept) is exact.
  return zipSync(zippable, { level: 6 }) as Uint8Array<ArrayBuffer>;
}
