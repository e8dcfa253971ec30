import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../../env';
import { resolveModelPath } from '../whisper/engine';
import { expectedSha1, expectedSha256, isKnownModel, WHISPER_MODELS } from './catalogue';

describe('the model table', () => {
  it('can verify every quantized model it offers for small machines', () => {
    for (const name of ['tiny-q5_1', 'tiny-q8_0', 'base-q5_1', 'base-q8_0', 'small-q5_1', 'small-q8_0']) {
      expect(isKnownModel(name), name).toBe(true);
      expect(WHISPER_MODELS[name]?.sha256, name).toMatch(/^[0-9a-f]{64}$/);
      expect(WHISPER_MODELS[name]?.bytes, name).toBeGreaterThan(30_000_000);
    }
    expect(expectedSha256('base-q8_0')).toBe(
      'c577b9a86e7e048a0b7eada054f4dd79a56bbfa911fbdacf900ac5b567cbb7d9',
    );
    expect(expectedSha1('base-q8_0')).toBeNull();
  });

  it("drops the table's SHA-256 when the operator names their own file's SHA-1", () => {
    expect(expectedSha256('base-q8_0', 'ab'.repeat(20))).toBeNull();
    expect(expectedSha1('base-q8_0', 'AB'.repeat(20))).toBe('ab'.repeat(20));
    expect(expectedSha256('base')).toBeNull();
  });

  it('is what WHISPER_MODEL_NAME names, quantized models included', () => {
    const env = loadEnv({ DATA_DIR: '/data', WHISPER_MODEL_NAME: 'small-q5_1' });
    expect(resolveModelPath(env)).toEqual({ path: '/data/models/ggml-small-q5_1.bin', name: 'small-q5_1' });
    expect(() => loadEnv({ WHISPER_MODEL_NAME: '../etc' })).toThrow();
  });
});
