import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error plain ESM script without type declarations
import { makeTestModel } from '../../scripts/make-test-model.mjs';

const DIR = path.resolve('tmp/models');

/**
 * The small random-weight whisper.cpp model the tests run the real engine with, generated once
 * and reused (written under a temporary name, then renamed, so parallel test files never read a
 * half-written file). `vocab: 'words'` gives every token id a word-shaped text, so the model
 * decodes words (for word timings) instead of "[_extra_token_N]" fillers.
 */
export async function testModelPath(
  preset: 'test' | 'tiny' | 'base' = 'test',
  vocab: 'small' | 'words' = 'small',
): Promise<string> {
  const file = path.join(DIR, `ggml-random-${preset}${vocab === 'words' ? '-words' : ''}.bin`);
  if (existsSync(file)) return file;
  mkdirSync(DIR, { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}.part`;
  await (makeTestModel as (out: string, preset: string, opts: { vocab: string }) => Promise<number>)(
    partial,
    preset,
    { vocab },
  );
  renameSync(partial, file);
  return file;
}
