import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeMedia } from '../server/test/media';
import { mayBeMedia, SNIFF_BYTES } from './media-sniff';

const head = (b: Buffer | string) => new Uint8Array(Buffer.from(b).subarray(0, SNIFF_BYTES));

describe('mayBeMedia', () => {
  it('lets real media files through (made by ffmpeg)', () => {
    for (const kind of ['mp4', 'mp3', 'avi', 'wav', 'webm', 'ogg', 'flac', 'mkv', 'mov', 'm4a'] as const) {
      const file = makeMedia(path.resolve('tmp/test-media'), kind, 1);
      expect(mayBeMedia(head(readFileSync(file))), kind).toBe(true);
    }
  });

  it('refuses documents, images, archives and text', () => {
    expect(mayBeMedia(head('%PDF-1.7\n%âãÏÓ\n'))).toBe(false);
    expect(mayBeMedia(head(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00])))).toBe(false);
    expect(mayBeMedia(head(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))).toBe(false);
    expect(mayBeMedia(head(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10])))).toBe(false);
    expect(mayBeMedia(head('Meeting notes\nAgenda: numbers, hiring, the rest.\n'))).toBe(false);
    expect(mayBeMedia(head('会議のメモ：数字、採用、その他。\n'))).toBe(false);
  });

  it('leaves unknown binary data to the server', () => {
    expect(mayBeMedia(head(Buffer.from([0x00, 0x01, 0x02, 0x03, 0x99, 0x00, 0x10])))).toBe(true);
  });
});
