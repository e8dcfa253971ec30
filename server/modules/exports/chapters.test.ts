// Chapters in the txt, json and docx exports (docs/decisions/0033-insights.md).
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Chapter } from '../../../common/insights';
import { buildExport, type ExportSource } from './build';

const chapters: Chapter[] = [
  { segment: 0, start: 0.5, title: 'Intro', summary: 'Who is here' },
  { segment: 1, start: 65, title: 'Budget & <plan>', summary: '' },
];
const source: ExportSource = {
  name: 'Meeting',
  segments: [
    { start: 0.5, end: 4, text: 'Hello everyone.' },
    { start: 65, end: 70, text: 'The budget.' },
  ],
  durationSec: 80,
  language: 'en',
  chapters,
};
const opts = { productName: 'ClipScribe' };

describe('exports with chapters', () => {
  it('puts the YouTube chapter block before the text of a txt export', async () => {
    const file = await buildExport(source, 'txt', opts);
    expect(file.body).toBe('00:00 Intro\n01:05 Budget & <plan>\n\nHello everyone.\n\nThe budget.\n');
  });

  it('lists chapters after the segments of a json export, the first at 0', async () => {
    const file = await buildExport(source, 'json', opts);
    const doc = JSON.parse(file.body as string) as { chapters: unknown };
    expect(doc.chapters).toEqual([
      { start: 0, title: 'Intro', summary: 'Who is here' },
      { start: 65, title: 'Budget & <plan>', summary: '' },
    ]);
    const plain = JSON.parse((await buildExport({ ...source, chapters: [] }, 'json', opts)).body as string);
    expect(plain).not.toHaveProperty('chapters');
  });

  it('lists chapters under the title of a docx export, escaped', async () => {
    const file = await buildExport(source, 'docx', opts);
    const xml = strFromU8(unzipSync(file.body as Uint8Array)['word/document.xml']!);
    expect(xml).toContain('Budget &amp; &lt;plan&gt;');
    expect(xml.indexOf('01:05')).toBeLessThan(xml.indexOf('Hello everyone.'));
  });
});
