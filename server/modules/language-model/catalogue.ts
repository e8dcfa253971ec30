// The GGUF instruct models the local adapter knows: the one table behind the automatic download
// and `npm run model:download -- <name>`. Checksums are the SHA-256 Hugging Face publishes for the
// files (their LFS object ids, the same in several independent projects' tables); sizes are byte
// counts where known. The default was chosen by measurement (docs/decisions/0038-default-local-model.md).

export interface GgufModel {
  /** The file name in the repository and under DATA_DIR/models. */
  file: string;
  /** Where the publisher serves it (LLM_MODEL_BASE_URL serves the same file names). */
  baseUrl: string;
  sha256: string | null;
  bytes: number | null;
  /** Tokens of context the model was trained for. */
  trainedContext: number;
}

const qwen = (size: string, sha256: string, bytes: number | null): GgufModel => ({
  file: `qwen2.5-${size}-instruct-q4_k_m.gguf`,
  baseUrl: `https://huggingface.co/Qwen/Qwen2.5-${size.toUpperCase()}-Instruct-GGUF/resolve/main`,
  sha256,
  bytes,
  trainedContext: 32_768,
});

export const LLM_MODELS: Readonly<Record<string, GgufModel>> = {
  'qwen2.5-0.5b': qwen('0.5b', '74a4da8c9fdbcd15bd1f6d01d621410d31c6fc00986f5eb687824e7b93d7a9db', null),
  'qwen2.5-1.5b': qwen(
    '1.5b',
    '6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e',
    1_117_320_736,
  ),
  'qwen2.5-3b': qwen('3b', '626b4a6678b86442240e33df819e00132d3ba7dddfe1cdc4fbb18e0a9615c62d', null),
};

export const DEFAULT_LLM_MODEL = 'qwen2.5-1.5b';

export const isKnownLlmModel = (name: string): boolean => Object.hasOwn(LLM_MODELS, name);

/** The file name of a model: the table's, else `<name>.gguf`. */
export const llmModelFile = (name: string): string => LLM_MODELS[name]?.file ?? `${name}.gguf`;

/** Where a model is fetched from: LLM_MODEL_BASE_URL (a mirror, same file names) or the publisher. */
export function llmModelUrl(name: string, mirror?: string): string | null {
  const base = mirror?.trim() || LLM_MODELS[name]?.baseUrl;
  return base ? `${base.replace(/\/+$/, '')}/${llmModelFile(name)}` : null;
}
