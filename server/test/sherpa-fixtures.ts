// The shape-true stand-in models sherpa-onnx's loaders read (random weights, real interfaces),
// written by scripts/make-sherpa-stand-ins.py and committed: the tests run the real native code on
// them (docs/decisions/0031-engines-per-language.md).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SHERPA_FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sherpa');

export const standInDiarization = {
  segmentation: path.join(SHERPA_FIXTURES, 'diarization', 'segmentation.onnx'),
  embedding: path.join(SHERPA_FIXTURES, 'diarization', 'embedding.onnx'),
};
