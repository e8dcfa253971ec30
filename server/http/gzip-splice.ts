import { constants, crc32, deflateRawSync } from 'node:zlib';

// A cached page is compressed once, yet every answer carries its own CSP nonce (decision 0016).
// The page is cut at each `nonce="…"` attribute and every piece is deflated on its own, ending in
// a full flush (byte-aligned, no reference back into an earlier piece); a deflate stream is then
// any sequence of such pieces with the last one finished. Per answer only the fresh attribute is
// deflated (a few dozen bytes) and the gzip trailer's CRC-32 and length computed over the pieces.

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

export interface SplicedPage {
  /** The page's text between the nonce attributes, UTF-8. */
  raw: Buffer[];
  /** The same pieces deflated; the last one ends the stream. */
  deflated: Buffer[];
  bytes: number;
}

const attribute = (nonce: string) => `nonce="${nonce}"`;

/** Cuts `html` at each `nonce="<nonce>"` and compresses the pieces (once per cached page). */
export function splicePage(html: string, nonce: string): SplicedPage {
  const pieces = nonce ? html.split(attribute(nonce)) : [html];
  const raw = pieces.map((p) => Buffer.from(p, 'utf8'));
  const deflated = raw.map((buf, i) =>
    deflateRawSync(buf, {
      level: constants.Z_BEST_COMPRESSION,
      finishFlush: i === raw.length - 1 ? constants.Z_FINISH : constants.Z_FULL_FLUSH,
    }),
  );
  const bytes = [...raw, ...deflated].reduce((n, b) => n + b.length, 0);
  return { raw, deflated, bytes };
}

/** The page as sent with this answer's nonce, uncompressed. */
export function plainPage(page: SplicedPage, nonce: string): Buffer {
  return Buffer.concat(interleave(page.raw, Buffer.from(attribute(nonce), 'utf8')));
}

/** The page as a gzip body with this answer's nonce. */
export function gzipPage(page: SplicedPage, nonce: string): Buffer {
  const attr = Buffer.from(attribute(nonce), 'utf8');
  let crc = 0;
  let length = 0;
  for (const piece of interleave(page.raw, attr)) {
    crc = crc32(piece, crc);
    length += piece.length;
  }
  const between = deflateRawSync(attr, { finishFlush: constants.Z_FULL_FLUSH });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  return Buffer.concat([GZIP_HEADER, ...interleave(page.deflated, between), trailer]);
}

function interleave(pieces: Buffer[], between: Buffer): Buffer[] {
  const out: Buffer[] = [];
  pieces.forEach((piece, i) => {
    if (i > 0) out.push(between);
    out.push(piece);
  });
  return out;
}

/** True when the client takes gzip (Accept-Encoding lists it, or `*`, without q=0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let wildcard = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = !q || Number(q.slice(2)) > 0;
    if (name.trim() === 'gzip') return accepted;
    if (name.trim() === '*') wildcard = accepted;
  }
  return wildcard;
}
