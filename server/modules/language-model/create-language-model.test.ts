// Which adapter the environment configures, and the local model arriving by itself from a mirror
// (resumable, checksummed: the Whisper model's provisioning) while the completion waits.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLlmModel } from '../../../scripts/make-llm-model.mjs';
import { loadEnv } from '../../env';
import { createLogger } from '../../logger';
import { startModelServer, type ModelServer } from '../../test/model-server';
import { createLanguageModel } from './create-language-model';
import { waitFor } from '../../test/wait';

let dir: string;
let mirror: ModelServer;
let gguf: Buffer;
const logger = createLogger('silent');

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'llm-provision-'));
  await makeLlmModel(path.join(dir, 'source.gguf'), { preset: 'test' });
  gguf = await readFile(path.join(dir, 'source.gguf'));
  mirror = await startModelServer();
  mirror.files.set('qwen2.5-1.5b-instruct-q4_k_m.gguf', gguf);
});
afterAll(async () => {
  await mirror.close();
  await rm(dir, { recursive: true, force: true });
});

describe('createLanguageModel', { timeout: 60_000 }, () => {
  it('uses an OpenAI-compatible endpoint when LLM_BASE_URL is set', () => {
    const env = loadEnv({ DATA_DIR: dir, LLM_BASE_URL: 'http://127.0.0.1:11434', LLM_MODEL: 'qwen2.5:3b' });
    const { model, provisioner } = createLanguageModel(env, logger);
    expect(model.kind).toBe('openai');
    expect(model.model).toBe('qwen2.5:3b');
    expect(model.contextTokens).toBe(32_768);
    expect(provisioner).toBeNull();
  });

  it('fetches the local model from the mirror on first need, verified, and then answers', async () => {
    const dataDir = path.join(dir, 'data');
    const env = loadEnv({
      DATA_DIR: dataDir,
      LLM_MODEL_BASE_URL: mirror.baseUrl,
      LLM_MODEL_SHA256: createHash('sha256').update(gguf).digest('hex'),
      LLM_THREADS: '1',
      LLM_CONTEXT_TOKENS: '2048',
    });
    const { model, provisioner } = createLanguageModel(env, logger);
    expect(model.kind).toBe('local');
    expect(model.model).toBe('qwen2.5-1.5b');
    expect(provisioner!.state().state).toBe('checking');
    const target = path.join(dataDir, 'models', 'qwen2.5-1.5b-instruct-q4_k_m.gguf');
    await expect(stat(target)).rejects.toThrow();

    const preparing: number[] = [];
    try {
      const result = await model.complete({
        messages: [{ role: 'user', content: 'Hello' }],
        maxTokens: 3,
        temperature: 0,
        onPreparing: (p) => preparing.push(p),
      });
      expect(result.usage.completionTokens).toBeGreaterThan(0);
    } finally {
      await model.close?.();
    }
    expect((await stat(target)).size).toBe(gguf.length);
    expect(mirror.requests.some((r) => r.path.endsWith('/qwen2.5-1.5b-instruct-q4_k_m.gguf'))).toBe(true);
    expect(preparing.every((p) => p >= 0 && p <= 100)).toBe(true);
  });

  it('refuses a mirror file whose checksum is not the expected one, and says so', async () => {
    const dataDir = path.join(dir, 'data-bad');
    const env = loadEnv({
      DATA_DIR: dataDir,
      LLM_MODEL_BASE_URL: mirror.baseUrl,
      LLM_MODEL_SHA256: '0'.repeat(64),
    });
    const { model, provisioner } = createLanguageModel(env, logger);
    provisioner!.start();
    const state = await waitFor(
      () => {
        const st = provisioner!.state();
        return st.state === 'retrying' && st;
      },
      { ms: 20_000, what: 'the failed download' },
    );
    expect(state.error).toContain('SHA-256');
    await model.close?.();
    await expect(stat(path.join(dataDir, 'models', 'qwen2.5-1.5b-instruct-q4_k_m.gguf'))).rejects.toThrow();
  });
});
