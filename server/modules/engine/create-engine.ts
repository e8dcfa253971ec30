import type { Env } from '../../env';
import type { Logger } from '../../logger';
import { createOpenAiEngine } from './openai';
import type { Engine } from './types';
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
  return createWhisperEngine({
    modelPath: model.path,
    modelName: model.name,
    threads: env.WHISPER_THREADS,
    watchdogMs: env.WHISPER_WATCHDOG_MS,
    temperature: env.WHISPER_TEMPERATURE,
    logger,
  });
}
