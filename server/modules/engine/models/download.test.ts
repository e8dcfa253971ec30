// downloadFile against a local HTTP server: fresh, interrupted then resumed, a file that changed
// between attempts, a wrong checksum, HTTP errors, and two downloaders of one file.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { sha1Of, startModelServer, type ModelServer } from '../../../test/model-server';
import { waitFor } from '../../../test/wait';

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
import { downloadFile, DownloadError, partPath } from './download';

const BODY = Buffer.from(Array.from({ length: 2 * 1024 * 1024 + 333 }, (_, i) => (i * 7 + (i >> 11)) & 0xff));
let server: ModelServer;
const dirs: string[] = [];

function dest(name = 'ggml-test.bin') {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-model-'));
  dirs.push(dir);
  return path.join(dir, 'models', name);
}

beforeAll(async () => {
  server = await startModelServer();
  server.files.set('ggml-test.bin', BODY);
});
afterAll(async () => {
  await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('downloadFile', () => {
  it('downloads, verifies and moves the file into place, reporting progress', async () => {
    const file = dest();
    const seen: number[] = [];
    const result = await downloadFile({
      url: `${server.baseUrl}/ggml-test.bin`,
      dest: file,
      sha1: sha1Of(BODY),
      onProgress: (p) => {
        expect(p.total).toBe(BODY.length);
        seen.push(p.bytes);
      },
    });
    expect(result).toEqual({ sha1: sha1Of(BODY), sha256: null, bytes: BODY.length, resumedFrom: 0 });
    expect(readFileSync(file).equals(BODY)).toBe(true);
    expect(readdirSync(path.dirname(file))).toEqual(['ggml-test.bin']);
    expect(seen[seen.length - 1]).toBe(BODY.length);
    expect(seen.length).toBeGreaterThan(2);
  });

  it('resumes an interrupted download with a Range request', async () => {
    const file = dest();
    const url = `${server.baseUrl}/ggml-test.bin`;
    server.cutAfter.set('ggml-test.bin', 700_000);
    const first = await downloadFile({ url, dest: file, sha1: sha1Of(BODY) }).catch((e: unknown) => e);
    server.cutAfter.delete('ggml-test.bin');
    expect(first).toBeInstanceOf(DownloadError);
    expect((first as DownloadError).code).toBe('incomplete');
    expect((first as DownloadError).retryable).toBe(true);
    expect(existsSync(file)).toBe(false);
    const kept = readFileSync(partPath(file)).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(700_000);

    const before = server.requests.length;
    // The SHA-256 (the quantized models' digest) covers the bytes kept from the first attempt too.
    const result = await downloadFile({ url, dest: file, sha1: null, sha256: sha256Of(BODY) });
    expect(result.resumedFrom).toBe(kept);
    expect(result.sha256).toBe(sha256Of(BODY));
    const resumed = server.requests.slice(before);
    expect(resumed).toHaveLength(1);
    expect(resumed[0]!.range).toBe(`bytes=${kept}-`);
    expect(resumed[0]!.ifRange).toMatch(/^"/);
    expect(readFileSync(file).equals(BODY)).toBe(true);
    expect(readdirSync(path.dirname(file))).toEqual(['ggml-test.bin']);
  });

  it('starts over when the file changed since the interrupted attempt (If-Range)', async () => {
    const file = dest('ggml-changing.bin');
    const url = `${server.baseUrl}/ggml-changing.bin`;
    const old = Buffer.alloc(500_000, 1);
    const fresh = Buffer.alloc(600_000, 2);
    server.files.set('ggml-changing.bin', old);
    server.cutAfter.set('ggml-changing.bin', 200_000);
    await expect(downloadFile({ url, dest: file, sha1: null })).rejects.toThrow(DownloadError);
    server.cutAfter.delete('ggml-changing.bin');
    server.files.set('ggml-changing.bin', fresh);
    const result = await downloadFile({ url, dest: file, sha1: sha1Of(fresh) });
    expect(result.resumedFrom).toBe(0);
    expect(readFileSync(file).equals(fresh)).toBe(true);
  });

  it('refuses bytes with the wrong checksum and keeps nothing', async () => {
    const file = dest();
    const err = await downloadFile({
      url: `${server.baseUrl}/ggml-test.bin`,
      dest: file,
      sha1: '0'.repeat(40),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect((err as DownloadError).code).toBe('checksum');
    expect((err as DownloadError).retryable).toBe(false);
    expect((err as Error).message).toContain(sha1Of(BODY));
    expect(readdirSync(path.dirname(file))).toEqual([]);
    const bad256 = await downloadFile({
      url: `${server.baseUrl}/ggml-test.bin`,
      dest: file,
      sha1: sha1Of(BODY),
      sha256: 'f'.repeat(64),
    }).catch((e: unknown) => e);
    expect((bad256 as DownloadError).code).toBe('checksum');
    expect((bad256 as Error).message).toContain(`SHA-256 ${sha256Of(BODY)}`);
    expect(readdirSync(path.dirname(file))).toEqual([]);
  });

  it('reports HTTP and network errors, retryable or not', async () => {
    const missing = await downloadFile({
      url: `${server.baseUrl}/ggml-none.bin`,
      dest: dest(),
      sha1: null,
    }).catch((e: unknown) => e as DownloadError);
    expect(missing).toMatchObject({ code: 'http', status: 404, retryable: false });
    const refused = await downloadFile({
      url: 'http://127.0.0.1:9/ggml-test.bin',
      dest: dest(),
      sha1: null,
    }).catch((e: unknown) => e as DownloadError);
    expect(refused).toMatchObject({ code: 'network', retryable: true });
  });

  it('lets one process download a file at a time, and takes over a dead one’s lock', async () => {
    const file = dest();
    const url = `${server.baseUrl}/ggml-test.bin`;
    // The first download holds the lock while the server holds back its bytes.
    server.paused = true;
    const first = downloadFile({ url, dest: file, sha1: sha1Of(BODY) });
    await waitFor(() => existsSync(`${file}.lock`), { what: 'the first download to take the lock' });
    const second = await downloadFile({ url, dest: file, sha1: sha1Of(BODY) }).catch((e: unknown) => e);
    expect(second).toMatchObject({ code: 'busy', retryable: true });
    server.paused = false;
    await first;

    const other = dest();
    // A lock left by a process that no longer runs (pid 2^22 + 1 is above Linux's default maximum).
    mkdirSync(path.dirname(other), { recursive: true });
    writeFileSync(`${other}.lock`, String(4_194_305));
    await downloadFile({ url, dest: other, sha1: sha1Of(BODY) });
    expect(readFileSync(other).equals(BODY)).toBe(true);
    expect(existsSync(`${other}.lock`)).toBe(false);
  });
});
