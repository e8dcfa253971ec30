// A backup is one plain tar file (POSIX ustar): any `tar -tf` lists it, any `tar -xf` unpacks it.
// Written and read here in streams, so media of any size never sits in memory. Sizes above
// ustar's 8 GiB use the base-256 form GNU tar and bsdtar read too.
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';

const BLOCK = 512;
const OCTAL_MAX = 0o77777777777;

function writeString(buf: Buffer, value: string, offset: number, length: number) {
  buf.write(value, offset, Math.min(length, Buffer.byteLength(value)), 'utf8');
}

function writeNumber(buf: Buffer, value: number, offset: number, length: number) {
  if (value <= OCTAL_MAX || length < 12) {
    writeString(buf, value.toString(8).padStart(length - 1, '0'), offset, length - 1);
    return;
  }
  // Base-256: the first byte's high bit set, the number big-endian in the rest.
  let v = BigInt(value);
  for (let i = offset + length - 1; i > offset; i--) {
    buf[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  buf[offset] = 0x80;
}

function readNumber(buf: Buffer, offset: number, length: number): number {
  if (buf[offset]! & 0x80) {
    let v = 0n;
    for (let i = offset + 1; i < offset + length; i++) v = (v << 8n) | BigInt(buf[i]!);
    return Number(v);
  }
  const text = buf
    .toString('ascii', offset, offset + length)
    .replace(/\0.*$/, '')
    .trim();
  return text ? parseInt(text, 8) : 0;
}

function readString(buf: Buffer, offset: number, length: number): string {
  const end = buf.indexOf(0, offset);
  return buf.toString('utf8', offset, end === -1 || end > offset + length ? offset + length : end);
}

/** A ustar header; names longer than 100 bytes are split into prefix/name at a slash. */
function header(name: string, size: number, mtime: Date): Buffer {
  const h = Buffer.alloc(BLOCK);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100)
      throw new Error(`Name too long for a backup: ${name}`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  writeString(h, base, 0, 100);
  writeNumber(h, 0o644, 100, 8);
  writeNumber(h, 0, 108, 8);
  writeNumber(h, 0, 116, 8);
  writeNumber(h, size, 124, 12);
  writeNumber(h, Math.floor(mtime.getTime() / 1000), 136, 12);
  h.fill(' ', 148, 156);
  h[156] = '0'.charCodeAt(0);
  writeString(h, 'ustar', 257, 6);
  writeString(h, '00', 263, 2);
  writeString(h, prefix, 345, 155);
  let sum = 0;
  for (const byte of h) sum += byte;
  writeString(h, sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return h;
}

export interface TarWriter {
  /** Adds a file from disk (streamed) or from memory. */
  add(name: string, source: { path: string; size: number; mtime?: Date } | Buffer): Promise<void>;
  /** Writes the end-of-archive blocks, flushes and closes the file. */
  finish(): Promise<void>;
}

async function write(out: WriteStream, chunk: Buffer) {
  if (!out.write(chunk)) await once(out, 'drain');
}

export function createTarWriter(file: string): TarWriter {
  const out = createWriteStream(file, { flags: 'wx' });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => undefined);
  const pad = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
  return {
    async add(name, source) {
      if (Buffer.isBuffer(source)) {
        await Promise.race([failed, write(out, header(name, source.length, new Date()))]);
        await write(out, source);
        await write(out, pad(source.length));
        return;
      }
      await Promise.race([failed, write(out, header(name, source.size, source.mtime ?? new Date()))]);
      let written = 0;
      for await (const chunk of createReadStream(source.path) as AsyncIterable<Buffer>) {
        // A file that grew meanwhile: the header's size is what the archive holds.
        const part = written + chunk.length > source.size ? chunk.subarray(0, source.size - written) : chunk;
        await write(out, part);
        written += part.length;
        if (written === source.size) break;
      }
      if (written !== source.size) throw new Error(`${source.path} changed while it was backed up`);
      await write(out, pad(source.size));
    },
    async finish() {
      await write(out, Buffer.alloc(BLOCK * 2));
      out.end();
      // 'close' comes after the last byte is flushed and the descriptor closed.
      await Promise.race([failed, once(out, 'close')]);
    },
  };
}

export interface TarEntry {
  name: string;
  size: number;
  mtime: Date;
}

/**
 * Reads a tar file entry by entry: `onEntry` gets each regular file's name and a stream of its
 * bytes, which it must consume before returning.
 */
export async function readTar(
  file: string,
  onEntry: (entry: TarEntry, body: Readable) => Promise<void>,
): Promise<void> {
  const input = createReadStream(file, { highWaterMark: 1 << 20 });
  let buffered: Buffer = Buffer.alloc(0);
  const iterator = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let ended = false;
  // Reads until `n` bytes are buffered (or the file ends).
  async function fill(n: number) {
    while (buffered.length < n && !ended) {
      const next = await iterator.next();
      if (next.done) ended = true;
      else buffered = buffered.length ? Buffer.concat([buffered, next.value]) : next.value;
    }
  }
  try {
    for (;;) {
      await fill(BLOCK);
      if (buffered.length < BLOCK)
        throw new Error('The backup ends in the middle of an entry: it is truncated.');
      const h = buffered.subarray(0, BLOCK);
      buffered = buffered.subarray(BLOCK);
      if (h.every((b) => b === 0)) return;
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
      if (sum !== readNumber(h, 148, 8))
        throw new Error('Not a backup file (a damaged or foreign tar header).');
      const prefix = readString(h, 345, 155);
      const base = readString(h, 0, 100);
      const name = prefix ? `${prefix}/${base}` : base;
      const size = readNumber(h, 124, 12);
      const type = String.fromCharCode(h[156]!);
      const body = new PassThrough();
      const consumed =
        type === '0' || type === '\0'
          ? onEntry({ name, size, mtime: new Date(readNumber(h, 136, 12) * 1000) }, body)
          : null;
      let left = size;
      while (left > 0) {
        await fill(1);
        if (buffered.length === 0)
          throw new Error('The backup ends in the middle of a file: it is truncated.');
        const part = buffered.subarray(0, Math.min(left, buffered.length));
        buffered = buffered.subarray(part.length);
        left -= part.length;
        // A consumer that gave up (threw) rejects here instead of leaving us waiting for a drain.
        if (consumed && !body.write(part)) await Promise.race([once(body, 'drain'), consumed]);
      }
      body.end();
      if (consumed) await consumed;
      else body.resume();
      const skip = (BLOCK - (size % BLOCK)) % BLOCK;
      await fill(skip);
      buffered = buffered.subarray(skip);
    }
  } finally {
    input.destroy();
  }
}
