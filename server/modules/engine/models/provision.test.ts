// The automatic model download against a local HTTP server serving a generated model: fresh,
// interrupted then resumed on the next attempt, a wrong checksum refused, jobs waiting meanwhile.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha1Of, startModelServer, type ModelServer } from '../../../test/model-server';
import { testModelPath } from '../../../test/test-model';
import { EngineError } from '../types';
import { checkModelFile } from '../whisper/model-file';
import { createModelProvisioner, type ModelProvisionerOptions } from './provision';

let server: ModelServer;
let model: Buffer;
const dirs: string[] = [];
const lines: { level: string; msg: string }[] = [];
const logger = {
  info: (_o: unknown, msg?: string) => void lines.push({ level: 'info', msg: msg ?? '' }),
  warn: (_o: unknown, msg?: string) => void lines.push({ level: 'warn', msg: msg ?? '' }),
  error: (_o: unknown, msg?: string) => void lines.push({ level: 'error', msg: msg ?? '' }),
} as unknown as ModelProvisionerOptions['logger'];

function setup(extra: Partial<ModelProvisionerOptions> = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-provision-'));
  dirs.push(dir);
  const dest = path.join(dir, 'models', `ggml-${extra.name ?? 'base'}.bin`);
  return {
    dest,
    provisioner: createModelProvisioner({
      name: 'base',
      path: dest,
      baseUrl: server.baseUrl,
      sha1: sha1Of(model),
      autoDownload: true,
      logger,
      retryDelaysMs: [50],
      ...extra,
    }),
  };
}

beforeAll(async () => {
  model = readFileSync(await testModelPath());
  server = await startModelServer();
  server.files.set('ggml-base.bin', model);
});
afterAll(async () => {
  await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('model provisioning', () => {
  it('downloads the missing model in the background; a waiting job sees the progress, then runs', async () => {
    const { dest, provisioner } = setup();
    server.delayMs = 2;
    const seen: number[] = [];
    provisioner.start();
    await provisioner.ready({ onProgress: (p) => seen.push(p) });
    server.delayMs = 0;
    expect(readFileSync(dest).equals(model)).toBe(true);
    expect(provisioner.state()).toEqual({ state: 'ready' });
    expect(seen.length).toBeGreaterThan(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(lines.some((l) => l.msg.includes('downloaded and verified'))).toBe(true);
    // Once there, ready() answers at once.
    await provisioner.ready();
    provisioner.close();
  });

  it('resumes an interrupted download on the next attempt', async () => {
    const { dest, provisioner } = setup();
    server.cutAfter.set('ggml-base.bin', Math.floor(model.length / 3));
    const before = server.requests.length;
    provisioner.start();
    await expect.poll(() => provisioner.state().state).toBe('retrying');
    server.cutAfter.delete('ggml-base.bin');
    await provisioner.ready();
    const ranges = server.requests.slice(before).map((r) => r.range);
    expect(ranges[0]).toBeUndefined();
    expect(ranges.at(-1)).toMatch(/^bytes=\d+-$/);
    expect(readFileSync(dest).equals(model)).toBe(true);
    provisioner.close();
  });

  it('refuses a file with the wrong checksum, tells the operator what to do, and jobs stop waiting', async () => {
    const { dest, provisioner } = setup({ sha1: 'f'.repeat(40), jobsWaitAttempts: 2 });
    lines.length = 0;
    const err = await provisioner.ready().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ code: 'model_unavailable', transient: true });
    expect(existsSync(dest)).toBe(false);
    const logged = lines.find((l) => l.level === 'error')!.msg;
    expect(logged).toContain('is not the published ggml-base.bin');
    expect(logged).toContain('WHISPER_MODEL_BASE_URL');
    provisioner.close();
  });

  it('with automatic download off, fails jobs at once as model_missing and logs the command', async () => {
    const { provisioner } = setup({ autoDownload: false });
    lines.length = 0;
    const before = server.requests.length;
    const err = await provisioner.ready().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'model_missing' });
    expect(server.requests.length).toBe(before);
    expect(lines.find((l) => l.level === 'error')!.msg).toContain('npm run model:download -- base');
    provisioner.close();
  });

  it('stops waiting when the job is canceled', async () => {
    const { provisioner } = setup({ baseUrl: 'http://127.0.0.1:9/none' });
    const controller = new AbortController();
    const waiting = provisioner.ready({ signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'canceled' });
    provisioner.close();
  });

  it('finds a truncated model at start, moves it aside and fetches it again (checksum known)', async () => {
    const { dest, provisioner } = setup();
    mkdirSync(path.dirname(dest), { recursive: true });
    writeFileSync(dest, model.subarray(0, Math.floor(model.length / 2)));
    lines.length = 0;
    provisioner.start();
    await provisioner.ready();
    expect(readFileSync(dest).equals(model)).toBe(true);
    expect(lines.find((l) => l.level === 'warn')!.msg).toContain('is damaged');
    expect(readFileSync(`${dest}.damaged`).length).toBe(Math.floor(model.length / 2));
    // What was verified is remembered beside the file: a restart need not read it again.
    expect(JSON.parse(readFileSync(`${dest}.verified.json`, 'utf8'))).toMatchObject({ sha1: sha1Of(model) });
    provisioner.close();
    const again = setup();
    mkdirSync(path.dirname(again.dest), { recursive: true });
    writeFileSync(again.dest, model);
    const before = server.requests.length;
    await again.provisioner.ready();
    expect(server.requests.length).toBe(before);
    again.provisioner.close();
  });

  it('without a checksum, a file cut short fails the structural check and is fetched again', async () => {
    const check = (file: string) => {
      const r = checkModelFile(file);
      return r.ok ? null : r.reason;
    };
    const { dest, provisioner } = setup({ name: 'custom', sha1: null, check });
    server.files.set('ggml-custom.bin', model);
    mkdirSync(path.dirname(dest), { recursive: true });
    writeFileSync(dest, model.subarray(0, model.length - 1000));
    provisioner.start();
    await provisioner.ready();
    expect(readFileSync(dest).equals(model)).toBe(true);
    provisioner.close();
  });

  it('judges a file the operator named by its structure only, never by the catalogue', async () => {
    // Their own model under a catalogue name: another size and checksum than the table's 'base'.
    const { dest, provisioner } = setup({ sha1: null, existing: 'structure', check: () => null });
    mkdirSync(path.dirname(dest), { recursive: true });
    writeFileSync(dest, model);
    const before = server.requests.length;
    await provisioner.ready();
    expect(server.requests.length).toBe(before);
    expect(readFileSync(dest).equals(model)).toBe(true);
    provisioner.close();
  });

  it('waits for another process downloading the same model, without an error, and says when it is ready', async () => {
    const { dest, provisioner } = setup();
    mkdirSync(path.dirname(dest), { recursive: true });
    // The other downloader: a live process whose pid is in the lock.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(`${dest}.lock`, String(other.pid));
      lines.length = 0;
      provisioner.start();
      await expect.poll(() => lines.some((l) => l.msg.includes('this process waits for it'))).toBe(true);
      expect(provisioner.state().state).toBe('downloading');
      // The other process finishes: its file appears and its lock goes.
      writeFileSync(dest, model);
      rmSync(`${dest}.lock`);
      await provisioner.ready();
      expect(lines.filter((l) => l.level === 'error')).toEqual([]);
      expect(lines.some((l) => l.level === 'info' && l.msg === 'Whisper model ready')).toBe(true);
    } finally {
      other.kill('SIGKILL');
      provisioner.close();
    }
  });
});
