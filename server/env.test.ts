import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadEnv } from './env';

describe('environment', () => {
  it('starts from `cp .env.example .env` as it is: every blank means the default', () => {
    const example = parseEnv(readFileSync('.env.example', 'utf8'));
    const env = loadEnv(example);
    expect(env.WHISPER_THREADS).toBeUndefined();
    expect(env.WHISPER_TEMPERATURE).toBeUndefined();
    expect(env.JOB_CONCURRENCY).toBe(1);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('treats an empty number as unset and still refuses a bad one', () => {
    expect(loadEnv({ WHISPER_THREADS: '', JOB_CONCURRENCY: '' }).JOB_CONCURRENCY).toBe(1);
    expect(() => loadEnv({ WHISPER_THREADS: '0' })).toThrow(/WHISPER_THREADS/);
  });
});
