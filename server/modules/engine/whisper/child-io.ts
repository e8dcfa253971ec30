// The whisper child's two channels: messages to the parent (blocking writes on fd 3, since the
// native decoder blocks the event loop anyway) and samples read from the decoded PCM file.
import { readSync, writeSync } from 'node:fs';
import type { ChildMessage } from './child-protocol';

export const SAMPLE_RATE = 16000;
const OUT_FD = 3;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocking write of one message; fd 3 may be non-blocking, so EAGAIN means "wait and retry". */
export function send(msg: ChildMessage): void {
  const buf = Buffer.from(`${JSON.stringify(msg)}\n`);
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(OUT_FD, buf, off, buf.length - off);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(sleeper, 0, 0, 5);
        continue;
      }
      // The parent is gone (EPIPE): nobody wants the rest of this job.
      process.exit(70);
    }
  }
}

/** The samples of the given original ranges (sample indexes), one after another, as float. */
export function readRanges(fd: number, ranges: [number, number][]): Float32Array {
  const total = ranges.reduce((n, [a, b]) => n + (b - a), 0);
  const out = new Float32Array(total);
  let at = 0;
  for (const [from, to] of ranges) {
    const bytes = (to - from) * 2;
    const buf = Buffer.allocUnsafeSlow(bytes);
    let got = 0;
    while (got < bytes) {
      const n = readSync(fd, buf, got, bytes - got, from * 2 + got);
      if (n === 0) break;
      got += n;
    }
    const pcm = new Int16Array(buf.buffer, buf.byteOffset, got >> 1);
    for (let i = 0; i < pcm.length; i++) out[at + i] = pcm[i]! / 32768;
    at += to - from;
  }
  return out;
}
