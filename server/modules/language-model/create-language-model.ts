import path from 'node:path';
import type { Env } from '../../env';
import type { Logger } from '../../logger';
import { createModelProvisioner, type ModelProvisioner } from '../engine/models/provision';
import { LLM_MODELS, llmModelFile, llmModelUrl } from './catalogue';
import { createLocalModel } from './local';
import { createOpenAiModel } from './openai';
import type { LanguageModel } from './types';

/** Where the local model lives: LLM_MODEL_PATH, else DATA_DIR/models/<the catalogue's file>. */
export function localModelPath(env: Pick<Env, 'LLM_MODEL_PATH' | 'LLM_MODEL_NAME' | 'DATA_DIR'>): string {
  return env.LLM_MODEL_PATH
    ? path.resolve(env.LLM_MODEL_PATH)
    : path.join(env.DATA_DIR, 'models', llmModelFile(env.LLM_MODEL_NAME));
}

/**
 * The language model the environment configures: the `openai` adapter when LLM_BASE_URL is set,
 * else the `local` one with the provisioner that fetches its GGUF file (like the Whisper model's:
 * resumable, checksummed, LLM_MODEL_BASE_URL as a mirror; `enqueue` makes it a download-model job).
 */
export function createLanguageModel(
  env: Env,
  logger: Logger,
  opts: {
    enqueueModelDownload?: (model: string, delayMs: number) => Promise<void>;
    headers?: Record<string, string>;
  } = {},
): { model: LanguageModel; provisioner: ModelProvisioner | null } {
  if (env.LLM_BASE_URL) {
    return {
      model: createOpenAiModel({
        baseUrl: env.LLM_BASE_URL,
        apiKey: env.LLM_API_KEY,
        model: env.LLM_MODEL,
        contextTokens: env.LLM_CONTEXT_TOKENS,
        timeoutMs: env.LLM_TIMEOUT_MS,
        // The one way a private address is reached on purpose: LLM_BASE_URL is the operator's
        // setting, never a user's (an Ollama next door). Only this URL; redirects are refused.
        allowPrivate: true,
      }),
      provisioner: null,
    };
  }
  const name = env.LLM_MODEL_NAME;
  const modelPath = localModelPath(env);
  const url = llmModelUrl(name, env.LLM_MODEL_BASE_URL);
  const known = LLM_MODELS[name];
  const enqueue = opts.enqueueModelDownload;
  const provisioner =
    env.LLM_MODEL_PATH || !url
      ? null
      : createModelProvisioner({
          name,
          path: modelPath,
          url,
          sha1: null,
          sha256: env.LLM_MODEL_SHA256?.toLowerCase() ?? known?.sha256 ?? null,
          label: 'AI model',
          autoDownloadSetting: 'LLM_MODEL_AUTO_DOWNLOAD',
          advice:
            `What to do: give this server access to ${new URL(url).origin}, or set LLM_MODEL_BASE_URL to a mirror ` +
            `that serves ${llmModelFile(name)}, or put the file at ${modelPath} yourself (npm run model:download -- ${name}), ` +
            `or set LLM_BASE_URL to an OpenAI-compatible endpoint.`,
          autoDownload: env.LLM_MODEL_AUTO_DOWNLOAD,
          headers: opts.headers,
          logger,
          enqueue: enqueue ? (delayMs) => enqueue(name, delayMs) : undefined,
        });
  const model = createLocalModel({
    modelPath,
    modelName: name,
    provisioner: provisioner ?? undefined,
    contextTokens: env.LLM_CONTEXT_TOKENS,
    threads: env.LLM_THREADS,
    gpu: env.LLM_GPU === 'off' ? false : env.LLM_GPU,
    logger,
  });
  return { model, provisioner };
}
