import type { Env } from '../../env';
import type { Logger } from '../../logger';
import { createModelProvisioner, type ModelProvisioner } from './models/provision';
import { createOpenAiEngine } from './openai';
import type { Engine } from './types';
import { createWhisperEngine, resolveModelPath } from './whisper/engine';
import { DIARIZATION_MODELS, diarizationModelUrl, diarizationPaths } from '../speakers/diarization/models';
import { createPerLanguageEngine } from './per-language';
import { createSherpaEngines } from './sherpa/create';
import { checkModelFile } from './whisper/model-file';

/** Bearer token for model downloads, when one is configured. */
export const modelDownloadHeaders = (env: Env) =>
  env.HF_TOKEN ? { authorization: `Bearer ${env.HF_TOKEN}` } : undefined;

/**
 * The engine named by TRANSCRIBE_ENGINE, configured from the environment, and for the local engine
 * the provisioner that fetches its model (`enqueue`: as a download-model job on the queue).
 */
export function createEngine(
  env: Env,
  logger: Logger,
  ffmpeg: string,
  opts: { enqueueModelDownload?: (model: string, delayMs: number) => Promise<void> } = {},
): { engine: Engine; provisioner: ModelProvisioner | null } {
  if (env.TRANSCRIBE_ENGINE === 'openai') {
    const engine = createOpenAiEngine({
      baseUrl: env.OPENAI_BASE_URL,
      apiKey: env.OPENAI_API_KEY,
      model: env.OPENAI_MODEL,
      ffmpegPath: ffmpeg,
    });
    return { engine, provisioner: null };
  }
  const model = resolveModelPath(env);
  const enqueue = opts.enqueueModelDownload;
  const provisioner = createModelProvisioner({
    name: model.name,
    path: model.path,
    baseUrl: env.WHISPER_MODEL_BASE_URL,
    sha1: env.WHISPER_MODEL_SHA1 ?? null,
    autoDownload: env.WHISPER_MODEL_AUTO_DOWNLOAD,
    headers: modelDownloadHeaders(env),
    logger,
    // A file the operator named is judged by its structure only (it may be their own model under
    // a catalogue name); whisper.cpp's headers must at least be whole.
    existing: env.WHISPER_MODEL ? 'structure' : 'verify',
    check: (file) => {
      const result = checkModelFile(file);
      return result.ok ? null : result.reason;
    },
    enqueue: enqueue ? (delayMs) => enqueue(model.name, delayMs) : undefined,
  });
  // Speaker diarization's two model files, fetched like the Whisper model when a job needs them.
  const paths = diarizationPaths(env);
  const diarizationProvisioners = DIARIZATION_MODELS.map((m) =>
    createModelProvisioner({
      name: `diarization-${m.role}`,
      path: m.role === 'segmentation' ? paths.segmentation : paths.embedding,
      url: diarizationModelUrl(m, env.DIARIZATION_MODEL_BASE_URL),
      sha1: m.sha1,
      label: `speaker ${m.role} model`,
      advice:
        `What to do: give this server access to ${new URL(m.url).origin}, or set DIARIZATION_MODEL_BASE_URL ` +
        `to a mirror that serves ${m.file}, or run: npm run model:download -- diarization.`,
      autoDownload: env.WHISPER_MODEL_AUTO_DOWNLOAD,
      logger,
    }),
  );
  const diarization = { paths, provisioners: diarizationProvisioners };
  const whisper = createWhisperEngine({
    diarization,
    modelPath: model.path,
    modelName: model.name,
    provisioner,
    threads: env.WHISPER_THREADS,
    watchdogMs: env.WHISPER_WATCHDOG_MS,
    temperature: env.WHISPER_TEMPERATURE,
    logger,
  });
  // The best model per language: Parakeet, SenseVoice where turned on, Whisper for the rest.
  const engine = createPerLanguageEngine({
    whisper,
    whisperModel: `whisper-${model.name}`,
    families: createSherpaEngines(env, logger, diarization, modelDownloadHeaders(env)),
    logger,
  });
  return { engine, provisioner };
}
