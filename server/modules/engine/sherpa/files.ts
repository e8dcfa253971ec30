// The cheap checks a recognizer's files pass before native code sees them (it exits the process
// on a file it cannot read): each ONNX file looks like a model, the tokens file like a token list.
import { readFileSync, statSync } from 'node:fs';
import { checkOnnxFile, type ModelCheck } from '../../speakers/diarization/diarize';
import type { SherpaPaths } from './families';

/** A tokens file: there, not empty, and lines of "<token> <id>". */
export function checkTokensFile(file: string): ModelCheck {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return { ok: false, code: 'model_missing', reason: `${file} does not exist` };
  }
  if (size === 0) return { ok: false, code: 'model_invalid', reason: `${file} is empty` };
  const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  return /^\S*\s+\d+$/.test(first.trimEnd())
    ? { ok: true }
    : { ok: false, code: 'model_invalid', reason: `${file} is not a tokens file` };
}

export function checkRecognizerFiles(paths: SherpaPaths): ModelCheck {
  for (const [role, file] of Object.entries(paths)) {
    const check = role === 'tokens' ? checkTokensFile(file) : checkOnnxFile(file);
    if (!check.ok) return check;
  }
  return { ok: true };
}
