// The language-model benches' stand-in model: a random-weight GGUF of a preset's real
// dimensions, written once into the bench folder and reused by later runs.
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { PRESETS } from '../../scripts/make-llm-model.mjs';
import { makeLlmModel } from '../../scripts/make-llm-model.mjs';

export async function ensureBenchModel(dir: string, name: keyof typeof PRESETS): Promise<string> {
  const file = path.join(dir, `${name}.gguf`);
  try {
    await stat(file);
  } catch {
    await mkdir(dir, { recursive: true });
    process.stderr.write(`writing ${file} …\n`);
    await makeLlmModel(file, { preset: name });
  }
  return file;
}
