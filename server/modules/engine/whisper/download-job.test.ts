// The download-model job against a local HTTP server standing in for Hugging Face.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetryableError, type JobContext } from '../../jobs/queue';
import { downloadModelJob } from './download-job';

const BODY = Buffer.alloc(512 * 1024, 7);
let server: Server;
let saved: NodeJS.ProcessEnv;

const ctx = (): JobContext => ({ signal: new AbortController().signal, attempt: 1, maxAttempts: 3 });

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/models/ggml-tiny.bin') res.writeHead(200, { 'content-length': BODY.length }).end(BODY);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  saved = { ...process.env };
  process.env.WHISPER_MODEL_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/models`;
  process.env.WHISPER_MODEL_SHA1 = createHash('sha1').update(BODY).digest('hex');
});

afterAll(async () => {
  process.env = saved;
  await new Promise((resolve) => server.close(resolve));
});

describe('the download-model job', () => {
  it('fetches and verifies the model into DATA_DIR/models', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-dl-job-'));
    await downloadModelJob(dir, { model: 'tiny' }, ctx());
    expect(readdirSync(path.join(dir, 'models'))).toEqual(['ggml-tiny.bin']);
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks to be tried again when the server fails, and fails for good on an unknown model', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-dl-job-'));
    await expect(downloadModelJob(dir, { model: 'base' }, ctx())).rejects.toBeInstanceOf(RetryableError);
    const unknown = downloadModelJob(dir, { model: 'huge' }, ctx());
    await expect(unknown).rejects.toThrow('unknown model "huge"');
    await expect(unknown).rejects.not.toBeInstanceOf(RetryableError);
    rmSync(dir, { recursive: true, force: true });
  });
});
