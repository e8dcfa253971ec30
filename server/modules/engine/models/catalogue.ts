// The whisper.cpp models ClipScribe knows: the one table behind `npm run model:download` and the
// server's automatic download. SHA-1s are the ones whisper.cpp publishes (models/README.md); sizes
// are the files' byte counts. null = a real file (listed by whisper.cpp's download script) without
// a published checksum or size here: it downloads, but cannot be verified.

export interface WhisperModel {
  /** The file name in the model repository and under DATA_DIR/models. */
  file: string;
  sha1: string | null;
  bytes: number | null;
}

/** whisper.cpp's model repository on Hugging Face; WHISPER_MODEL_BASE_URL points elsewhere. */
export const DEFAULT_MODEL_BASE_URL = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main';

const model = (name: string, sha1: string | null, bytes: number | null): WhisperModel => ({
  file: `ggml-${name}.bin`,
  sha1,
  bytes,
});

export const WHISPER_MODELS: Readonly<Record<string, WhisperModel>> = {
  tiny: model('tiny', 'bd577a113a864445d4c299885e0cb97d4ba92b5f', 77_691_713),
  'tiny.en': model('tiny.en', 'c78c86eb1a8faa21b369bcd33207cc90d64ae9df', 77_704_715),
  base: model('base', '465707469ff3a37a2b9b8d8f89f2f99de7299dac', 147_951_465),
  'base.en': model('base.en', '137c40403d78fd54d454da0f9bd998f78703390c', 147_964_211),
  small: model('small', '55356645c2b361a969dfd0ef2c5a50d530afd8d5', 487_601_967),
  'small.en': model('small.en', 'db8a495a91d927739e50b3fc1cc4c6b8f6c2d022', 487_614_201),
  medium: model('medium', 'fd9727b6e1217c2f614f9b698455c4ffd82463b4', 1_533_763_059),
  'medium.en': model('medium.en', '8c30f0e44ce9560643ebd10bbe50cd20eafd3723', 1_533_774_781),
  'large-v1': model('large-v1', 'b1caaf735c4cc1429223d5a74f0f4d0b9b59a299', 3_094_623_691),
  'large-v2': model('large-v2', '0f4c8e34f21cf1a914c59d8b3ce882345ad349d6', 3_094_623_691),
  'large-v3': model('large-v3', 'ad82bf6a9043ceed055076d0fd39f5f186ff8062', 3_095_033_483),
  'large-v3-turbo': model('large-v3-turbo', '4af2b29d7ec73d781377bfd1758ca957a807e941', 1_624_555_275),
  'large-v2-q5_0': model('large-v2-q5_0', '00e39f2196344e901b3a2bd5814807a769bd1630', null),
  'large-v3-q5_0': model('large-v3-q5_0', 'e6e2ed78495d403bef4b7cff42ef4aaadcfea8de', null),
  'large-v3-turbo-q5_0': model('large-v3-turbo-q5_0', 'e050f7970618a659205450ad97eb95a18d69c9ee', null),
  'tiny-q5_1': model('tiny-q5_1', null, null),
  'tiny.en-q5_1': model('tiny.en-q5_1', null, null),
  'tiny-q8_0': model('tiny-q8_0', null, null),
  'base-q5_1': model('base-q5_1', null, null),
  'base.en-q5_1': model('base.en-q5_1', null, null),
  'base-q8_0': model('base-q8_0', null, null),
  'small-q5_1': model('small-q5_1', null, null),
  'small.en-q5_1': model('small.en-q5_1', null, null),
  'small-q8_0': model('small-q8_0', null, null),
  'medium-q5_0': model('medium-q5_0', null, null),
  'medium.en-q5_0': model('medium.en-q5_0', null, null),
  'medium-q8_0': model('medium-q8_0', null, null),
  'large-v2-q8_0': model('large-v2-q8_0', null, null),
  'large-v3-turbo-q8_0': model('large-v3-turbo-q8_0', null, null),
};

export const isKnownModel = (name: string): boolean => Object.hasOwn(WHISPER_MODELS, name);

/** The file name of a model: the table's, else whisper.cpp's naming (ggml-<name>.bin). */
export const modelFileName = (name: string): string => WHISPER_MODELS[name]?.file ?? `ggml-${name}.bin`;

/** Where a model is fetched from, under a base URL (the default repository or a mirror). */
export function modelUrl(name: string, baseUrl: string = DEFAULT_MODEL_BASE_URL): string {
  return `${baseUrl.replace(/\/+$/, '')}/${modelFileName(name)}`;
}

/** The checksum a download must match: the operator's override first, then the table's. */
export function expectedSha1(name: string, override?: string | null): string | null {
  const custom = override?.trim().toLowerCase();
  return custom || WHISPER_MODELS[name]?.sha1 || null;
}
