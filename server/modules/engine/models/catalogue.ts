// The whisper.cpp models ClipScribe knows: the one table behind `npm run model:download` and the
// server's automatic download. SHA-1s are the ones whisper.cpp publishes (models/README.md); the
// quantized files have none there, so they carry the SHA-256 the model repository publishes (its
// LFS object ids, the same in several independent projects' tables); sizes are the files' byte
// counts. null = a real file without a published checksum or size here: it downloads, unverified.

export interface WhisperModel {
  /** The file name in the model repository and under DATA_DIR/models. */
  file: string;
  sha1: string | null;
  bytes: number | null;
  /**
   * SHA-256 of the file as the model repository publishes it (Hugging Face's LFS object id): the
   * only digest published for the quantized files, whose SHA-1 whisper.cpp does not list.
   */
  sha256?: string;
}

/** whisper.cpp's model repository on Hugging Face; WHISPER_MODEL_BASE_URL points elsewhere. */
export const DEFAULT_MODEL_BASE_URL = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main';

const model = (name: string, sha1: string | null, bytes: number | null, sha256?: string): WhisperModel => ({
  file: `ggml-${name}.bin`,
  sha1,
  bytes,
  ...(sha256 && { sha256 }),
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
  'large-v2-q5_0': model(
    'large-v2-q5_0',
    '00e39f2196344e901b3a2bd5814807a769bd1630',
    1_080_732_091,
    '3a214837221e4530dbc1fe8d734f302af393eb30bd0ed046042ebf4baf70f6f2',
  ),
  'large-v3-q5_0': model(
    'large-v3-q5_0',
    'e6e2ed78495d403bef4b7cff42ef4aaadcfea8de',
    1_081_140_203,
    'd75795ecff3f83b5faa89d1900604ad8c780abd5739fae406de19f23ecd98ad1',
  ),
  'large-v3-turbo-q5_0': model(
    'large-v3-turbo-q5_0',
    'e050f7970618a659205450ad97eb95a18d69c9ee',
    574_041_195,
    '394221709cd5ad1f40c46e6031ca61bce88931e6e088c188294c6d5a55ffa7e2',
  ),
  'tiny-q5_1': model(
    'tiny-q5_1',
    null,
    32_152_673,
    '818710568da3ca15689e31a743197b520007872ff9576237bda97bd1b469c3d7',
  ),
  'tiny.en-q5_1': model(
    'tiny.en-q5_1',
    null,
    32_166_155,
    'c77c5766f1cef09b6b7d47f21b546cbddd4157886b3b5d6d4f709e91e66c7c2b',
  ),
  'tiny-q8_0': model(
    'tiny-q8_0',
    null,
    43_537_433,
    'c2085835d3f50733e2ff6e4b41ae8a2b8d8110461e18821b09a15c40c42d1cca',
  ),
  'base-q5_1': model(
    'base-q5_1',
    null,
    59_707_625,
    '422f1ae452ade6f30a004d7e5c6a43195e4433bc370bf23fac9cc591f01a8898',
  ),
  'base.en-q5_1': model(
    'base.en-q5_1',
    null,
    59_721_011,
    '4baf70dd0d7c4247ba2b81fafd9c01005ac77c2f9ef064e00dcf195d0e2fdd2f',
  ),
  'base-q8_0': model(
    'base-q8_0',
    null,
    81_768_585,
    'c577b9a86e7e048a0b7eada054f4dd79a56bbfa911fbdacf900ac5b567cbb7d9',
  ),
  'small-q5_1': model(
    'small-q5_1',
    null,
    190_085_487,
    'ae85e4a935d7a567bd102fe55afc16bb595bdb618e11b2fc7591bc08120411bb',
  ),
  'small.en-q5_1': model(
    'small.en-q5_1',
    null,
    190_098_681,
    'bfdff4894dcb76bbf647d56263ea2a96645423f1669176f4844a1bf8e478ad30',
  ),
  'small-q8_0': model(
    'small-q8_0',
    null,
    264_464_607,
    '49c8fb02b65e6049d5fa6c04f81f53b867b5ec9540406812c643f177317f779f',
  ),
  'medium-q5_0': model(
    'medium-q5_0',
    null,
    539_212_467,
    '19fea4b380c3a618ec4723c3eef2eb785ffba0d0538cf43f8f235e7b3b34220f',
  ),
  'medium.en-q5_0': model(
    'medium.en-q5_0',
    null,
    539_225_533,
    '76733e26ad8fe1c7a5bf7531a9d41917b2adc0f20f2e4f5531688a8c6cd88eb0',
  ),
  'medium-q8_0': model(
    'medium-q8_0',
    null,
    823_369_779,
    '42a1ffcbe4167d224232443396968db4d02d4e8e87e213d3ee2e03095dea6502',
  ),
  'large-v2-q8_0': model(
    'large-v2-q8_0',
    null,
    1_656_129_691,
    'fef54e6d898246a65c8285bfa83bd1807e27fadf54d5d4e81754c47634737e8c',
  ),
  'large-v3-turbo-q8_0': model(
    'large-v3-turbo-q8_0',
    null,
    874_188_075,
    '317eb69c11673c9de1e1f0d459b253999804ec71ac4c23c17ecf5fbe24e259a1',
  ),
};

export const isKnownModel = (name: string): boolean => Object.hasOwn(WHISPER_MODELS, name);

/** The file name of a model: the table's, else whisper.cpp's naming (ggml-<name>.bin). */
export const modelFileName = (name: string): string => WHISPER_MODELS[name]?.file ?? `ggml-${name}.bin`;

/** Where a model is fetched from, under a base URL (the default repository or a mirror). */
export function modelUrl(name: string, baseUrl: string = DEFAULT_MODEL_BASE_URL): string {
  return `${baseUrl.replace(/\/+$/, '')}/${modelFileName(name)}`;
}

/**
 * The SHA-256 a download must match as well (the quantized models'); none when the operator gave
 * their own SHA-1 (a mirror serving another file).
 */
export function expectedSha256(name: string, sha1Override?: string | null): string | null {
  return sha1Override?.trim() ? null : (WHISPER_MODELS[name]?.sha256 ?? null);
}

/** The checksum a download must match: the operator's override first, then the table's. */
export function expectedSha1(name: string, override?: string | null): string | null {
  const custom = override?.trim().toLowerCase();
  return custom || WHISPER_MODELS[name]?.sha1 || null;
}

/** The byte count a model file must have: the table's, unless the operator's SHA-1 names another file. */
export function expectedBytes(name: string, sha1Override?: string | null): number | null {
  return sha1Override?.trim() ? null : (WHISPER_MODELS[name]?.bytes ?? null);
}
