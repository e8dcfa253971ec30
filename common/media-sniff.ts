// A look at a file's first bytes before it is uploaded: a PDF, an image, an archive or a text
// file is refused at once instead of after a long upload. Media containers are recognised by their
// signatures; anything unknown and binary goes up and the server's probe decides (no false refusal).

/** How many bytes the check needs from the start of the file. */
export const SNIFF_BYTES = 512;

const ascii = (b: Uint8Array, at: number, s: string) =>
  b.length >= at + s.length && [...s].every((c, i) => b[at + i] === c.charCodeAt(0));
const bytes = (b: Uint8Array, at: number, sig: number[]) =>
  b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);

function isMedia(b: Uint8Array): boolean {
  return (
    ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].some((box) => ascii(b, 4, box)) || // MP4, MOV, M4A, 3GP
    bytes(b, 0, [0x1a, 0x45, 0xdf, 0xa3]) || // Matroska, WebM
    (ascii(b, 0, 'RIFF') && ['AVI ', 'WAVE', 'RMP3', 'CDXA'].some((k) => ascii(b, 8, k))) ||
    ascii(b, 0, 'ID3') || // MP3 with tags
    (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0) || // MPEG audio frame, ADTS AAC
    ['fLaC', 'OggS', 'FLV', '#!AMR', 'caff', '.snd', 'MThd'].some((m) => ascii(b, 0, m)) ||
    (ascii(b, 0, 'FORM') && (ascii(b, 8, 'AIFF') || ascii(b, 8, 'AIFC'))) ||
    bytes(b, 0, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11]) || // ASF: WMA, WMV
    bytes(b, 0, [0x00, 0x00, 0x01, 0xba]) || // MPEG program stream
    bytes(b, 0, [0x00, 0x00, 0x01, 0xb3]) || // MPEG video
    (b[0] === 0x47 && (b.length < 189 || b[188] === 0x47)) || // MPEG transport stream
    ascii(b, 0, '.RMF') // RealMedia
  );
}

const NOT_MEDIA: [number, (b: Uint8Array) => boolean][] = [
  [0, (b) => ascii(b, 0, '%PDF')],
  [0, (b) => bytes(b, 0, [0x50, 0x4b, 0x03, 0x04]) || bytes(b, 0, [0x50, 0x4b, 0x05, 0x06])], // ZIP, Office files
  [0, (b) => bytes(b, 0, [0x89, 0x50, 0x4e, 0x47])], // PNG
  [0, (b) => bytes(b, 0, [0xff, 0xd8, 0xff])], // JPEG
  [0, (b) => ascii(b, 0, 'GIF8')],
  [0, (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')],
  [0, (b) => ascii(b, 0, 'MZ') || bytes(b, 0, [0x7f, 0x45, 0x4c, 0x46])], // executables
  [0, (b) => ascii(b, 0, 'Rar!') || bytes(b, 0, [0x37, 0x7a, 0xbc, 0xaf]) || bytes(b, 0, [0x1f, 0x8b])],
  [0, (b) => bytes(b, 0, [0xd0, 0xcf, 0x11, 0xe0])], // old Office documents
];

/** Text (UTF-8 or ASCII) has no NUL bytes and few control characters. */
function looksLikeText(b: Uint8Array): boolean {
  if (b.length === 0) return false;
  let control = 0;
  for (const v of b) {
    if (v === 0) return false;
    if (v < 0x20 && v !== 0x09 && v !== 0x0a && v !== 0x0d) control++;
  }
  return control / b.length < 0.02;
}

/** False when the first bytes show the file cannot be video or audio. */
export function mayBeMedia(head: Uint8Array): boolean {
  if (isMedia(head)) return true;
  if (NOT_MEDIA.some(([, test]) => test(head))) return false;
  return !looksLikeText(head);
}
