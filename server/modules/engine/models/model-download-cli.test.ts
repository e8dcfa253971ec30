// scripts/model-download.ts (the operators' command) against a local HTTP server standing in for Hugging Face.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = path.resolve(import.meta.dirname, '../../../../scripts/model-download.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const BODY = Buffer.from(Array.from({ length: 3 * 1024 * 1024 + 17 }, (_, i) => (i * 31 + (i >> 9)) & 0xff));
const SHA1 = createHash('sha1').update(BODY).digest('hex');

let server: Server;
let baseUrl: string;
const requests: string[] = [];

function run(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  // Asynchronous on purpose: the HTTP server lives in this process.
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', TSX, SCRIPT, ...args],
      { env: { ...process.env, WHISPER_MODEL_SHA1: '', WHISPER_MODEL_NAME: '', ...env } },
      (err, _stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr });
      },
    );
  });
}

function dataDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'cs-dl-'));
}

const modelFiles = (dir: string) =>
  existsSync(path.join(dir, 'models')) ? readdirSync(path.join(dir, 'models')) : [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url?.endsWith('.onnx')) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 100_000 });
      res.end(Buffer.alloc(100_000, 8));
    } else if (req.url?.startsWith('/models/ggml-')) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BODY.length });
      // Several writes, so the download really streams.
      for (let off = 0; off < BODY.length; off += 256 * 1024) res.write(BODY.subarray(off, off + 256 * 1024));
      res.end();
    } else {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/models`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('model:download', () => {
  it('downloads, verifies the SHA-1 and moves the file into DATA_DIR/models', async () => {
    const dir = dataDir();
    const { code, stderr } = await run(['tiny'], {
      DATA_DIR: dir,
      WHISPER_MODEL_BASE_URL: baseUrl,
      WHISPER_MODEL_SHA1: SHA1,
    });
    expect(stderr).toContain('SHA-1 verified');
    expect(code).toBe(0);
    expect(modelFiles(dir)).toEqual(['ggml-tiny.bin']);
    expect(readFileSync(path.join(dir, 'models', 'ggml-tiny.bin')).equals(BODY)).toBe(true);
    expect(stderr).toMatch(/100\.0%/);
    expect(stderr).toMatch(/MB\/s/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves nothing behind and fails when the checksum does not match', async () => {
    const dir = dataDir();
    const overridden = await run(['base'], {
      DATA_DIR: dir,
      WHISPER_MODEL_BASE_URL: baseUrl,
      WHISPER_MODEL_SHA1: '0'.repeat(40),
    });
    expect(overridden.code).not.toBe(0);
    expect(overridden.stderr).toContain('checksum mismatch');
    expect(modelFiles(dir)).toEqual([]);
    // Without an override the published table applies, and our test file is not the real model.
    const table = await run(['small'], { DATA_DIR: dir, WHISPER_MODEL_BASE_URL: baseUrl });
    expect(table.code).not.toBe(0);
    expect(table.stderr).toContain('55356645c2b361a969dfd0ef2c5a50d530afd8d5');
    expect(modelFiles(dir)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a file it cannot verify, saying so', async () => {
    const dir = dataDir();
    const { code, stderr } = await run(['tiny-q5_1'], { DATA_DIR: dir, WHISPER_MODEL_BASE_URL: baseUrl });
    expect(code).toBe(0);
    expect(stderr).toContain('could not verify');
    expect(modelFiles(dir)).toEqual(['ggml-tiny-q5_1.bin']);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses unknown names with the list, before any request', async () => {
    const dir = dataDir();
    const before = requests.length;
    const { code, stderr } = await run(['huge'], { DATA_DIR: dir, WHISPER_MODEL_BASE_URL: baseUrl });
    expect(code).not.toBe(0);
    expect(stderr).toContain('unknown model "huge"');
    expect(stderr).toContain('large-v3-turbo');
    expect(requests.length).toBe(before);
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails on an HTTP error without leaving a partial file', async () => {
    const dir = dataDir();
    const { code, stderr } = await run(['base.en'], {
      DATA_DIR: dir,
      WHISPER_MODEL_BASE_URL: `${baseUrl.replace(/\/models$/, '')}/missing`,
    });
    expect(code).not.toBe(0);
    expect(stderr).toContain('HTTP 404');
    expect(modelFiles(dir)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('fetches both speaker-diarization models with `diarization`, from a mirror', async () => {
    const dir = dataDir();
    try {
      const { code, stderr } = await run(['diarization'], {
        DATA_DIR: dir,
        DIARIZATION_MODEL_BASE_URL: baseUrl,
      });
      expect(code, stderr).toBe(0);
      expect(readdirSync(path.join(dir, 'models', 'diarization')).sort()).toEqual([
        'pyannote-segmentation-3.0.onnx',
        'wespeaker_en_voxceleb_resnet34_LM.onnx',
      ]);
      expect(requests).toContain('/models/pyannote-segmentation-3.0.onnx');
      const again = await run(['diarization'], { DATA_DIR: dir, DIARIZATION_MODEL_BASE_URL: baseUrl });
      expect(again.stderr).toContain('already exists');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
