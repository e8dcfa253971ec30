// Transcript exports (docs/product.md#exports): file names, Content-Disposition and the text formats. Pure and
// dependency-free so the browser can build the same files the server sends. SubRip and WebVTT
// come from ./captions (formatSrt / formatVtt); .docx is in ./exports-docx (it needs `docx`).
//
// Every format applies the same rule to segment text as the caption serializers: whitespace runs
// become one space, and a segment whose text is then empty is skipped. Nothing else is changed:
// Unicode, emoji and right-to-left text pass through as they are (no bidi marks are added).

import { formatTime } from './format';
import type { ExportFormat } from './ranks';
import type { Segment } from './segments';
import { speakerNames, speakerRuns, type Speaker } from './speakers';

export { formatSrt, formatVtt } from './captions';

/** Content-Type of each export, and of several exports zipped together. */
export const EXPORT_CONTENT_TYPES: Record<ExportFormat | 'zip', string> = {
  txt: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  json: 'application/json; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  zip: 'application/zip',
};

/** Longest file name stem, in code points (the extension is added after). */
export const MAX_FILE_STEM = 150;
// ext4, NTFS and APFS allow 255 bytes per name; this leaves room for ' (n)' and an extension.
const MAX_STEM_BYTES = 200;
const FALLBACK_STEM = 'transcript';

/** One line of text: the rule formatSrt/formatVtt apply, so every format skips the same segments. */
const MULTI_SPACE = /\s\s|[^\S ]/;
// Stored text is already normalised, so the replace (which allocates per match, ~10x slower on
// long transcripts) only runs when a run of spaces or another whitespace character is present.
const oneLine = (text: string): string => (MULTI_SPACE.test(text) ? text.replace(/\s+/g, ' ') : text).trim();

/** Segments as exported: text on one line, blank ones dropped. Input is not mutated. */
export function exportableSegments(segments: readonly Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const seg of segments) {
    const text = typeof seg.text === 'string' ? oneLine(seg.text) : '';
    if (text !== '') out.push({ start: seg.start, end: seg.end, text });
  }
  return out;
}

/** '0:01 - 0:04', or '1:02:03 - 1:02:09' from one hour (formatTime, fractions floored). */
export const timeRange = (seg: Pick<Segment, 'start' | 'end'>): string =>
  `${formatTime(seg.start)} - ${formatTime(seg.end)}`;

/**
 * Segments as exported with speakers: cut where the speaker changes inside a segment (so each
 * piece has one), and the name to put before each ('' for a piece nobody is named for).
 */
export function speakerLines(
  segments: readonly Segment[],
  speakers: readonly Speaker[],
): { segments: Segment[]; nameOf: (seg: Segment) => string } {
  const names = speakerNames(speakers);
  return {
    segments: segments.flatMap((seg) => speakerRuns(seg)),
    nameOf: (seg) => (seg.speaker ? oneLine(names.get(seg.speaker) ?? '') : ''),
  };
}

/**
 * Plain text: the segments separated by a blank line, each optionally preceded by a
 * 'start - end' line, and a final newline. No segment gives ''.
 * e.g. 'Hello\n\nWorld\n' or '0:01 - 0:04\nHello\n\n0:05 - 0:09\nWorld\n'.
 * With `speakers`, a segment whose speaker is named starts with 'Name: ' ('Alice: Hello').
 */
export function formatTxt(
  segments: readonly Segment[],
  opts: { timestamps: boolean; speakers?: readonly Speaker[] },
): string {
  const named = opts.speakers?.length ? speakerLines(segments, opts.speakers) : null;
  const blocks: string[] = [];
  for (const seg of named ? named.segments : segments) {
    const [out] = exportableSegments([seg]);
    if (!out) continue;
    const name = named?.nameOf(seg);
    const text = name ? `${name}: ${out.text}` : out.text;
    blocks.push(opts.timestamps ? `${timeRange(out)}\n${text}` : text);
  }
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}

export interface JsonExportSource {
  name: string;
  /** Seconds, or null when unknown (captions imported without media). */
  duration: number | null;
  language: string | null;
  segments: readonly Segment[];
  /** The transcript's speakers; none (or an empty list) leaves the format as it was. */
  speakers?: readonly Speaker[];
}

/**
 * `{ name, duration, language, segments: [{ start, end, text, words? }] }`, two-space indented,
 * final newline. `words` ([{ start, end, text }]) is there for segments timed per word.
 * With speakers: `speakers: [{ id, name }]` after `language`, and `speaker` (an id) on every
 * segment and word that names one.
 */
export function formatJson(t: JsonExportSource): string {
  const named = !!t.speakers?.length;
  const segments: Segment[] = [];
  for (const seg of t.segments) {
    const [out] = exportableSegments([seg]);
    if (!out) continue;
    const words = seg.words?.length
      ? named
        ? seg.words
        : seg.words.map(({ start, end, text }) => ({ start, end, text }))
      : undefined;
    const withWords: Segment = words ? { ...out, words } : out;
    segments.push(named && seg.speaker ? { ...withWords, speaker: seg.speaker } : withWords);
  }
  const doc = named
    ? {
        name: t.name,
        duration: t.duration,
        language: t.language,
        speakers: t.speakers!.map((s) => ({ id: s.id, name: s.name })),
        segments,
      }
    : { name: t.name, duration: t.duration, language: t.language, segments };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

// Unpaired UTF-16 surrogates cannot be encoded (encodeURIComponent throws on them).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (s: string): string => s.replace(LONE_SURROGATE, '\uFFFD');

// Characters Windows, macOS or Linux refuse in a name, and control characters (C0, DEL, C1).
// Bidi embedding/override/isolate controls are included: in a file name they only serve to make
// 'cod.exe' look like 'exe.doc'. Letters of right-to-left scripts are of course kept.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[/\\:*?"<>|\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g;
// Windows reserves these device names, whatever the case and whatever extension follows
// ('con.txt' is as unusable as 'CON'); '¹²³' count as digits there.
const RESERVED = /^(?:CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])$/i;

const utf8Length = (cp: number): number => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

function truncateStem(stem: string): string {
  let out = '';
  let chars = 0;
  let bytes = 0;
  for (const ch of stem) {
    const size = utf8Length(ch.codePointAt(0) ?? 0);
    if (chars + 1 > MAX_FILE_STEM || bytes + size > MAX_STEM_BYTES) break;
    out += ch;
    chars++;
    bytes += size;
  }
  return out;
}

// Leading dots hide a file (and '..' walks up); Windows drops trailing dots and spaces.
const trimEnds = (s: string): string => s.replace(/^[\s.]+/, '').replace(/[\s.]+$/, '');

/**
 * '<name>.<ext>' safe on every common file system: whitespace runs (line breaks included) become
 * one space, runs of unsafe characters (`/\:*?"<>|`, control and bidi-control characters) one
 * '_'; leading dots and spaces, trailing dots and spaces are removed; the stem is cut to
 * MAX_FILE_STEM code points (and 200 UTF-8 bytes) without splitting a character; a Windows device
 * name ('CON', 'lpt1', 'nul.tar') gets a leading '_'. When nothing but unsafe characters, dots and
 * spaces was given, the stem is 'transcript'. `ext` is given without the dot ('txt').
 */
export function exportFileName(name: string, ext: string): string {
  const spaced = wellFormed(typeof name === 'string' ? name : '').replace(/\s+/g, ' ');
  // Emptiness is judged on what is left once unsafe characters are gone, so '???' falls back
  // to 'transcript' instead of becoming '_'.
  if (trimEnds(spaced.replace(UNSAFE, '')) === '') return `${FALLBACK_STEM}.${ext}`;
  let stem = trimEnds(truncateStem(trimEnds(spaced.replace(UNSAFE, '_'))));
  if (RESERVED.test((stem.split('.')[0] ?? '').trimEnd())) stem = `_${stem}`;
  return `${stem}.${ext}`;
}

/** Split 'a.b.txt' into ['a.b', '.txt']; a name without a dot has no extension. */
function splitExt(filename: string): [string, string] {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? [filename.slice(0, dot), filename.slice(dot)] : [filename, ''];
}

/**
 * The same names, made unique for one folder or zip: a repeated name becomes 'name (2).txt',
 * 'name (3).txt', … Comparison ignores case (Windows and macOS folders do), and a number is never
 * one that another given name already uses, so given names that are unique keep their name.
 */
export function uniqueFileNames(filenames: readonly string[]): string[] {
  const key = (s: string): string => s.toLowerCase();
  const given = new Set(filenames.map(key));
  const taken = new Set<string>();
  return filenames.map((filename) => {
    let out = filename;
    if (taken.has(key(out))) {
      const [stem, ext] = splitExt(filename);
      for (let n = 2; taken.has(key(out)) || given.has(key(out)); n++) out = `${stem} (${n})${ext}`;
    }
    taken.add(key(out));
    return out;
  });
}

// RFC 5987 attr-char: encodeURIComponent also leaves ' ( ) * unescaped, which are not allowed.
const encodeRfc5987 = (s: string): string =>
  encodeURIComponent(s).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );

/**
 * An ASCII stand-in for clients that ignore filename*: accents dropped ('é' → 'e'), every other
 * run of non-printable-ASCII characters, '"', '\' and '%' (which some clients decode) becomes '_'.
 */
function asciiFallback(filename: string): string {
  return filename
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]+|["\\%]/g, '_');
}

/** A bulk export's answer header: the ids left out because they are not finished, comma-separated. */
export const EXPORT_SKIPPED_HEADER = 'X-Export-Skipped';

/**
 * `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded>` (RFC 6266), for a
 * name already made safe by exportFileName.
 */
export function contentDisposition(filename: string): string {
  const name = wellFormed(filename);
  return `attachment; filename="${asciiFallback(name)}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}
