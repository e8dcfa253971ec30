// The sherpa-onnx recognizers' model files (docs/decisions/0031-engines-per-language.md): where
// they are published, where they live (DATA_DIR/models/<dir>, or a directory the operator names),
// which mirror variable replaces the origin. Fetched like the Whisper model, on first need.
import path from 'node:path';

export type SherpaFamily = 'parakeet' | 'sense-voice';

export interface SherpaModelFile {
  /** What the file is, as the recognizer config names it. */
  role: 'encoder' | 'decoder' | 'joiner' | 'model' | 'tokens';
  file: string;
  /** SHA-256 when one is known (checked after download), else null. */
  sha256: string | null;
  /** Approximate size, for the log and the README. */
  mb: number;
}

export interface SherpaFamilySpec {
  family: SherpaFamily;
  /** What the transcript records as the model that made it. */
  model: string;
  /** Directory under DATA_DIR/models. */
  dir: string;
  /** Where the files are published: `${origin}/${file}`. */
  origin: string;
  /** The environment variable naming a mirror that serves the same file names. */
  mirrorVariable: 'PARAKEET_MODEL_BASE_URL' | 'SENSE_VOICE_MODEL_BASE_URL';
  /** The environment variable naming a directory that already holds the files. */
  dirVariable: 'PARAKEET_MODEL_DIR' | 'SENSE_VOICE_MODEL_DIR';
  files: readonly SherpaModelFile[];
}

export const SHERPA_FAMILIES: Readonly<Record<SherpaFamily, SherpaFamilySpec>> = {
  parakeet: {
    family: 'parakeet',
    model: 'parakeet-tdt-0.6b-v3-int8',
    dir: 'parakeet-tdt-0.6b-v3-int8',
    // sherpa-onnx's int8 export of nvidia/parakeet-tdt-0.6b-v3 (CC-BY-4.0), pinned to one commit.
    // The SHA-256s are those a public mirror of this commit lists (huggingface.co/rostrumstudios/speech);
    // nothing could be downloaded here to check them (see the decision).
    origin:
      'https://huggingface.co/csukuangfj/sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8/resolve/2bda32ec70b097a55adaa07d9a7173915b43cc78',
    mirrorVariable: 'PARAKEET_MODEL_BASE_URL',
    dirVariable: 'PARAKEET_MODEL_DIR',
    files: [
      {
        role: 'encoder',
        file: 'encoder.int8.onnx',
        sha256: 'acfc2b4456377e15d04f0243af540b7fe7c992f8d898d751cf134c3a55fd2247',
        mb: 622,
      },
      {
        role: 'decoder',
        file: 'decoder.int8.onnx',
        sha256: '179e50c43d1a9de79c8a24149a2f9bac6eb5981823f2a2ed88d655b24248db4e',
        mb: 11.3,
      },
      {
        role: 'joiner',
        file: 'joiner.int8.onnx',
        sha256: '3164c13fc2821009440d20fcb5fdc78bff28b4db2f8d0f0b329101719c0948b3',
        mb: 6.1,
      },
      {
        role: 'tokens',
        file: 'tokens.txt',
        sha256: 'd58544679ea4bc6ac563d1f545eb7d474bd6cfa467f0a6e2c1dc1c7d37e3c35d',
        mb: 0.09,
      },
    ],
  },
  'sense-voice': {
    family: 'sense-voice',
    model: 'sense-voice-small-int8',
    dir: 'sense-voice-small-int8',
    // sherpa-onnx's export of FunAudioLLM/SenseVoiceSmall; no checksum is published for it.
    origin:
      'https://huggingface.co/csukuangfj/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17/resolve/main',
    mirrorVariable: 'SENSE_VOICE_MODEL_BASE_URL',
    dirVariable: 'SENSE_VOICE_MODEL_DIR',
    files: [
      { role: 'model', file: 'model.int8.onnx', sha256: null, mb: 228 },
      { role: 'tokens', file: 'tokens.txt', sha256: null, mb: 0.3 },
    ],
  },
};

export type SherpaPaths = Partial<Record<SherpaModelFile['role'], string>>;

/** The directory a family's files are in: its *_MODEL_DIR, else DATA_DIR/models/<dir>. */
export function sherpaDir(
  spec: SherpaFamilySpec,
  env: Record<string, unknown> & { DATA_DIR: string },
): string {
  const named = env[spec.dirVariable];
  return typeof named === 'string' && named.trim()
    ? path.resolve(named.trim())
    : path.join(env.DATA_DIR, 'models', spec.dir);
}

/** Every file of a family by role, in `dir`. */
export function sherpaPaths(spec: SherpaFamilySpec, dir: string): SherpaPaths {
  return Object.fromEntries(spec.files.map((f) => [f.role, path.join(dir, f.file)]));
}

/** A file's download URL: the mirror's (same file name) when one is set, else the origin's. */
export function sherpaFileUrl(spec: SherpaFamilySpec, file: SherpaModelFile, mirror?: string | null): string {
  const base = mirror?.trim() ? mirror.trim().replace(/\/+$/, '') : spec.origin;
  return `${base}/${file.file}`;
}
