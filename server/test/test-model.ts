import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error plain ESM script without type declarations
import { makeTestModel } from '../../scripts/make-test-model.mjs';

const DIR = path.resolve('tmp/models');

/**
 * The small random-weight whisper.cpp model the tests run the real engine with, generated once
 * and reused (written under a temporary name, then renamed, so parallel test files never read a
 * half-written file).
 */
export async function testModelPath(preset: 'test' | 'tiny' = 'test'): Promise<string> {
  const file = path.join(DIR, `ggml-random-${preset}.bin`);
  if (existsSync(file)) return file;
  mkdirSync(DIR, { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}.part`;
  await (makeTestModel as (out: string, preset: string) => Promise<number>)(partial, preset);
  renameSync(partial, file);
  return file;
}
