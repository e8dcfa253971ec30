// The speaker-diarization models (sherpa-onnx's offline diarization: pyannote segmentation, a
// speaker-embedding model, clustering). Fetched like the Whisper model: in the background on
// first need, into DATA_DIR/models/diarization, from their public location or a mirror
// (DIARIZATION_MODEL_BASE_URL serves both files by name), or by `npm run model:download --
// diarization`. No checksum is published for these files and none could be computed here (no
// internet on the build machine): see docs/decisions/0020-speakers.md.

import path from 'node:path';

export interface DiarizationModelFile {
  /** What the file is for, in logs. */
  role: 'segmentation' | 'embedding';
  /** File name under DATA_DIR/models/diarization (and on a mirror). */
  file: string;
  /** Where it is published. */
  url: string;
  sha1: string | null;
}

export const DIARIZATION_MODELS: readonly DiarizationModelFile[] = [
  {
    role: 'segmentation',
    // pyannote/segmentation-3.0 exported to ONNX by the sherpa-onnx project (MIT), ≈ 6 MB.
    file: 'pyannote-segmentation-3.0.onnx',
    url: 'https://huggingface.co/csukuangfj/sherpa-onnx-pyannote-segmentation-3-0/resolve/main/model.onnx',
    sha1: null,
  },
  {
    role: 'embedding',
    // WeSpeaker ResNet34 trained on VoxCeleb (the embedding pyannote 3.x uses), ≈ 26 MB.
    file: 'wespeaker_en_voxceleb_resnet34_LM.onnx',
    url: 'https://github.com/k2-fsa/sherpa-onnx/releases/download/speaker-recongition-models/wespeaker_en_voxceleb_resnet34_LM.onnx',
    sha1: null,
  },
];

export interface DiarizationPaths {
  segmentation: string;
  embedding: string;
}

export const diarizationDir = (dataDir: string): string => path.join(dataDir, 'models', 'diarization');

/** Where the two files live (DIARIZATION_MODEL_DIR wins over DATA_DIR/models/diarization). */
export function diarizationPaths(env: {
  DATA_DIR: string;
  DIARIZATION_MODEL_DIR?: string;
}): DiarizationPaths {
  const dir = env.DIARIZATION_MODEL_DIR?.trim()
    ? path.resolve(env.DIARIZATION_MODEL_DIR)
    : diarizationDir(env.DATA_DIR);
  const [segmentation, embedding] = DIARIZATION_MODELS;
  return { segmentation: path.join(dir, segmentation!.file), embedding: path.join(dir, embedding!.file) };
}

/** A file's download URL: the mirror's (by file name) when one is set, else where it is published. */
export function diarizationModelUrl(model: DiarizationModelFile, mirror?: string | null): string {
  return mirror?.trim() ? `${mirror.trim().replace(/\/+$/, '')}/${model.file}` : model.url;
}
