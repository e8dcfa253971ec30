// The download-model job against a local HTTP server standing in for Hugging Face.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha1Of, startModelServer, type ModelServer } from '../../../test/model-server';
import { RetryableError, type JobContext } from '../../jobs/queue';
import { createModelProvisioner } from '../models/provision';
import { downloadModelJob } from './download-job';

const BODY = Buffer.alloc(512 * 1024, 7);
let server: ModelServer;
const quiet = { info() {}, warn() {}, error() {} } as never;
const ctx = (attempt = 1): JobContext => ({ signal: new AbortController().signal, attempt, maxAttempts: 3 });

beforeAll(async () => {
  server = await startModelServer();
  server.files.set('ggml-base.bin', BODY);
});
afterAll(async () => {
  await server.close();
});

describe('the download-model job', () => {
  it("fetches the engine's model through its provisioner, which waiting jobs follow", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-dl-job-'));
    const dest = path.join(dir, 'models', 'ggml-base.bin');
    const queued: number[] = [];
    const provisioner = createModelProvisioner({
      name: 'base',
      path: dest,
      baseUrl: server.baseUrl,
      sha1: sha1Of(BODY),
      autoDownload: true,
      logger: quiet,
      enqueue: async (delayMs) => void queued.push(delayMs),
    });
    provisioner.start();
    await expect.poll(() => queued).toEqual([0]);
    const waiting = provisioner.ready();
    await downloadModelJob({ dataDir: dir, baseUrl: server.baseUrl, provisioner }, { model: 'base' }, ctx());
    await waiting;
    // No partial file left; what was verified is remembered beside the model.
    expect(readdirSync(path.join(dir, 'models')).sort()).toEqual([
      'ggml-base.bin',
      'ggml-base.bin.verified.json',
    ]);
    provisioner.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks to be tried again while the server cannot be reached, queues a later job after the last attempt', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-dl-job-'));
    const queued: number[] = [];
    const provisioner = createModelProvisioner({
      name: 'small',
      path: path.join(dir, 'models', 'ggml-small.bin'),
      baseUrl: 'http://127.0.0.1:9/models',
      autoDownload: true,
      logger: quiet,
      enqueue: async (delayMs) => void queued.push(delayMs),
    });
    const target = { dataDir: dir, baseUrl: 'http://127.0.0.1:9/models', provisioner };
    await expect(downloadModelJob(target, { model: 'small' }, ctx(1))).rejects.toBeInstanceOf(RetryableError);
    expect(queued).toEqual([]);
    const last = downloadModelJob(target, { model: 'small' }, ctx(3));
    await expect(last).rejects.not.toBeInstanceOf(RetryableError);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toBeGreaterThan(60_000);
    provisioner.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails for good on a missing file or an unknown model', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-dl-job-'));
    const target = { dataDir: dir, baseUrl: server.baseUrl };
    const missing = downloadModelJob(target, { model: 'tiny' }, ctx());
    await expect(missing).rejects.toThrow('HTTP 404');
    await expect(missing).rejects.not.toBeInstanceOf(RetryableError);
    const unknown = downloadModelJob(target, { model: 'huge' }, ctx());
    await expect(unknown).rejects.toThrow('unknown model "huge"');
    await expect(unknown).rejects.not.toBeInstanceOf(RetryableError);
    rmSync(dir, { recursive: true, force: true });
  });
});
