import type { Env } from '../../env';
import type { Logger } from '../../logger';
import { createOpenAiEngine } from './openai';
import type { Engine } from './types';
import { createModelProvisioner } from './models/provision';
import { createWhisperEngine, resolveModelPath } from './whisper/engine';

/** The engine named by TRANSCRIBE_ENGINE, configured from the environment. */
export function createEngine(env: Env, logger: Logger, ffmpeg: string): Engine {
  if (env.TRANSCRIBE_ENGINE === 'openai') {
    return createOpenAiEngine({
      baseUrl: env.OPENAI_BASE_URL,
      apiKey: env.OPENAI_API_KEY,
      model: env.OPENAI_MODEL,
      ffmpegPath: ffmpeg,
    });
  }
  const model = resolveModelPath(env);
  const provisioner = createModelProvisioner({
    name: model.name,
    path: model.path,
    baseUrl: env.WHISPER_MODEL_BASE_URL,
    sha1: env.WHISPER_MODEL_SHA1 ?? null,
    autoDownload: env.WHISPER_MODEL_AUTO_DOWNLOAD,
    headers: env.HF_TOKEN ? { authorization: `Bearer ${env.HF_TOKEN}` } : undefined,
    logger,
  });
  return createWhisperEngine({
    modelPath: model.path,
    modelName: model.name,
    provisioner,
    threads: env.WHISPER_THREADS,
    watchdogMs: env.WHISPER_WATCHDOG_MS,
    temperature: env.WHISPER_TEMPERATURE,
    logger,
  });
}
