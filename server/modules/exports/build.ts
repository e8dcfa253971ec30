// Export files for one transcript (docs/product.md#exports) and zips of several. The formatters are in common/
// (the browser can build the same files); this module only picks one and names the file.
// Used by the export API and by share links, so it takes plain data, not a database row.

import { strToU8, zipSync, type Zippable } from 'fflate';
import { EXPORT_FORMATS, limitsFor, type ExportFormat, type RankLimits } from '../../../common/ranks';
import { formatSrtCues, formatVttCues } from '../../../common/captions';
import { segmentCues, subtitleCues } from '../../../common/cues';
import { readingCues } from '../../../common/reading-cues';
import {
  EXPORT_CONTENT_TYPES,
  exportFileName,
  formatJson,
  formatTxt,
  speakerLines,
  uniqueFileNames,
} from '../../../common/exports';
import { speakerNames, type Speaker } from '../../../common/speakers';
import type { Segment } from '../../../common/segments';
import { youtubeChapters, type Chapter } from '../../../common/insights';
import { ExportCode } from '../../../common/error-codes';
import { ApiError } from '../errors';

export { EXPORT_FORMATS, type ExportFormat };

export interface ExportSource {
  name: string;
  segments: Segment[];
  durationSec: number | null;
  /** The transcript's language code (the detected one when known), or null. */
  language: string | null;
  /** Who speaks (names before the text, voice tags in WebVTT); none = the formats as before. */
  speakers?: readonly Speaker[];
  /** The transcript's chapters when they were made (docs/decisions/0033-insights.md). */
  chapters?: readonly Chapter[];
  /**
   * A translation: subtitle cues are timed for reading in `language` (common/reading-cues.ts),
   * segments too fast to read joined.
   */
  readingSpeed?: boolean;
}

export interface ExportOptions {
  /** txt only: a 'start - end' line before each segment. */
  timestamps?: boolean;
  /**
   * srt/vtt: 'subtitle' (default) cuts segments into subtitle-sized cues (2 lines of 42 characters,
   * 7 s, ~20 characters a second); 'segment' keeps one cue per segment.
   */
  cues?: 'subtitle' | 'segment';
  /** Credited in the .docx ('Transcribed with <productName>'): env APP_NAME. */
  productName: string;
}

export interface ExportFile {
  /** Safe '<transcript name>.<ext>' (exportFileName). */
  filename: string;
  contentType: string;
  /** Text formats as a string (UTF-8 when sent), .docx as bytes (usable as a Response body). */
  body: Uint8Array<ArrayBuffer> | string;
}

/** One transcript as one file in `format`. */
export async function buildExport(
  t: ExportSource,
  format: ExportFormat,
  opts: ExportOptions,
): Promise<ExportFile> {
  const file = (body: ExportFile['body']): ExportFile => ({
    filename: exportFileName(t.name, format),
    contentType: EXPORT_CONTENT_TYPES[format],
    body,
  });
  switch (format) {
    case 'txt': {
      const text = formatTxt(t.segments, { timestamps: opts.timestamps ?? false, speakers: t.speakers });
      // Chapters first, as the YouTube description block (`00:00 Title` lines).
      return file(t.chapters?.length ? `${youtubeChapters(t.chapters)}\n\n${text}` : text);
    }
    case 'srt':
      // 'Name: text' in every cue of a named speaker, counted in the cue's line length.
      return file(formatSrtCues(cuesOf(t, opts, true)));
    case 'vtt':
      // The name goes in a voice tag (`<v Name>`), which players show apart from the lines.
      return file(
        formatVttCues(cuesOf(t, opts, false), t.speakers?.length ? speakerNames(t.speakers) : undefined),
      );
    case 'json':
      return file(
        formatJson({
          name: t.name,
          duration: t.durationSec,
          language: t.language,
          segments: t.segments,
          speakers: t.speakers,
          chapters: t.chapters,
        }),
      );
    case 'docx': {
      // `docx` (≈ 9 MB) is loaded with the first .docx export, not at start.
      const { buildDocx } = await import('../../../common/exports-docx');
      return file(
        await buildDocx({
          name: t.name,
          segments: t.segments,
          productName: opts.productName,
          speakers: t.speakers,
          chapters: t.chapters,
        }),
      );
    }
  }
}

/** Cues that never hold two speakers (segments are cut where the speaker changes first). */
function cuesOf(t: ExportSource, opts: ExportOptions, namePrefix: boolean) {
  const named = t.speakers?.length ? speakerLines(t.segments, t.speakers) : null;
  const segments = named ? named.segments : t.segments;
  const prefixOf =
    named && namePrefix
      ? (seg: Segment) => {
          const name = named.nameOf(seg);
          return name ? `${name}: ` : '';
        }
      : undefined;
  return opts.cues === 'segment'
    ? segmentCues(segments, prefixOf)
    : t.readingSpeed
      ? readingCues(segments, { language: t.language, prefixOf })
      : subtitleCues(segments, { language: t.language, prefixOf });
}

// Formats that are already compressed gain nothing from a second deflate.
const STORED = /\.(?:docx|zip)$/i;

/**
 * One zip holding every entry; repeated names become 'name (2).txt', … (uniqueFileNames).
 * Text is stored as UTF-8 and deflated at level 6; .docx entries are stored as they are.
 */
export function buildZip(
  entries: readonly { filename: string; body: Uint8Array | string }[],
): Uint8Array<ArrayBuffer> {
  const names = uniqueFileNames(entries.map((e) => e.filename));
  const files: Zippable = {};
  entries.forEach((entry, i) => {
    const data = typeof entry.body === 'string' ? strToU8(entry.body) : entry.body;
    files[names[i]!] = [data, { level: STORED.test(names[i]!) ? 0 : 6 }];
  });
  // fflate allocates its output with `new Uint8Array(n)`, never on a SharedArrayBuffer.
  return zipSync(files) as Uint8Array<ArrayBuffer>;
}

/** 403 unless the account's plan includes `format`. */
export function assertFormatAllowed(
  user: { rankName: string | null; customLimits?: Partial<RankLimits> | null },
  format: ExportFormat,
): void {
  if (!limitsFor(user.rankName, user.customLimits).export_formats.includes(format)) {
    throw new ApiError(ExportCode.FORMAT_NOT_IN_PLAN, 'errors.exports.formatNotInPlan', { format });
  }
}
