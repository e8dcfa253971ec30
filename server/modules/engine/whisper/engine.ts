// The local whisper.cpp engine (@napi-rs/whisper, see docs/decisions/0007-whisper-binding.md).
// Every transcription runs in a child process of its own (child.ts → child-run.ts): the native code
// blocks the thread it runs on, can abort the process on bad input and cannot be interrupted, so
// the parent only watches (run-child.ts), relays (relay.ts) and kills.
import os from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { WHISPER_LANGUAGES } from '../../../../common/whisper-languages';
import type { Logger } from '../../../logger';
import {
  EngineError,
  type Engine,
  type EngineAudio,
  type TranscribeOptions,
  type TranscribeResult,
} from '../types';
import { PCM_BYTES_PER_SECOND } from '../../media/decode';
import { modelFileName } from '../models/catalogue';
import type { ModelProvisioner } from '../models/provision';
import type { DiarizationPaths } from '../../speakers/diarization/models';
import { checkDiarizationModels } from '../../speakers/diarization/diarize';
import { childCommand, type ChildCommand } from './child-command';
import type { ChildJob } from './child-protocol';
import { createRelay } from './relay';
import { KILL_SETTLE_MS, runChild } from './run-child';

export interface WhisperEngineOptions {
  modelPath: string;
  /** The name `npm run model:download` knows the model by (default 'base'), for error messages. */
  modelName?: string;
  /** Threads per job; default: every core (os.availableParallelism()). */
  threads?: number;
  /** No word from the child for this long kills the job (default 10 minutes). */
  watchdogMs?: number;
  /** Longest piece of audio decoded in one native call, in seconds (default 600). */
  maxChunkSec?: number;
  /** Decoding temperature (default 0, with whisper.cpp's fallback to higher ones). */
  temperature?: number;
  /** Word timings (one whisper segment per word, regrouped into sentences); default true. */
  words?: boolean;
  /** Audio in the first chunk, in seconds (default 20: the first words arrive within seconds). */
  firstChunkSec?: number;
  /** Makes sure the model is on disk before a job (the automatic download); see models/provision.ts. */
  provisioner?: ModelProvisioner;
  /** Speaker diarization's model files and what fetches them (jobs that ask for speakers wait). */
  diarization?: { paths: DiarizationPaths; provisioners: ModelProvisioner[] };
  logger?: Pick<Logger, 'debug' | 'warn'>;
  /** Called with the pid of each child process started (tests use it to kill one). */
  onSpawn?: (pid: number) => void;
}

const DEFAULT_WATCHDOG_MS = 10 * 60_000;
const DEFAULT_MAX_CHUNK_SEC = 600;
/** A chunk should report back well within the watchdog, and at least every half minute. */
const MAX_CHUNK_COMPUTE_SEC = 30;

const LANGUAGES = new Set<string>(WHISPER_LANGUAGES);

/** How often a job waiting for the speaker models looks whether their download has failed. */
const DOWNLOAD_WATCH_MS = 250;

/**
 * Waits for a model's download while it works; a download that is off ('missing') or has failed
 * once ('retrying') is not waited for: the job goes on without speakers and says why, instead of
 * holding the transcript for the download's retries.
 */
async function downloadWhileItWorks(
  p: ModelProvisioner,
  opts: { signal?: AbortSignal; onProgress?: (percent: number) => void },
): Promise<void> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let watch: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_, reject) => {
    const look = () => {
      const state = p.state();
      if (state.state === 'missing')
        return reject(new EngineError('model_missing', `the ${p.name} model is not on this server`));
      if (state.state === 'retrying')
        return reject(
          new EngineError('model_unavailable', `the ${p.name} model could not be downloaded: ${state.error}`),
        );
      watch = setTimeout(look, DOWNLOAD_WATCH_MS);
    };
    look();
  });
  try {
    await Promise.race([p.ready({ signal: stop.signal, onProgress: opts.onProgress }), failed]);
  } finally {
    clearTimeout(watch);
    stop.abort();
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

const notConfigured = () =>
  new EngineError('model_missing', 'speaker diarization is not configured for this engine');

/** Where the model lives: WHISPER_MODEL wins, else `<DATA_DIR>/models/<the table's file name>`. */
export function resolveModelPath(env: {
  WHISPER_MODEL?: string;
  WHISPER_MODEL_NAME?: string;
  DATA_DIR: string;
}): {
  path: string;
  name: string;
} {
  const explicit = env.WHISPER_MODEL?.trim();
  const named = env.WHISPER_MODEL_NAME?.trim();
  if (explicit) {
    const fromFile = /^ggml-(.+)\.bin$/.exec(path.basename(explicit))?.[1];
    return { path: path.resolve(explicit), name: named || fromFile || 'base' };
  }
  const name = named || 'base';
  return { path: path.join(env.DATA_DIR, 'models', modelFileName(name)), name };
}

export function createWhisperEngine(options: WhisperEngineOptions): Engine {
  const modelName = options.modelName ?? 'base';
  const watchdogMs = options.watchdogMs ?? DEFAULT_WATCHDOG_MS;
  /** Running children and how to cancel each one's job. */
  const running = new Map<ChildProcess, () => void>();
  let closed = false;
  let command: ChildCommand | undefined;

  /** What the child is asked to do for this call. */
  function childJob(audio: EngineAudio, opts: TranscribeOptions): ChildJob {
    const diarization = opts.speakers ? options.diarization : undefined;
    return {
      modelPath: options.modelPath,
      pcmPath: audio.pcmPath,
      durationSec: audio.durationSec,
      language: opts.language,
      translate: opts.translate ?? false,
      threads: options.threads,
      temperature: options.temperature,
      maxChunkSec: options.maxChunkSec ?? DEFAULT_MAX_CHUNK_SEC,
      targetChunkComputeSec: Math.min(MAX_CHUNK_COMPUTE_SEC, watchdogMs / 4000),
      detectSpeech: opts.detectSpeech ?? true,
      words: options.words ?? true,
      firstChunkSec: options.firstChunkSec,
      ...(diarization && opts.speakers
        ? {
            diarize: {
              ...diarization.paths,
              speakers: opts.speakers.count,
              threads: options.threads ?? Math.min(4, os.availableParallelism()),
            },
          }
        : {}),
    };
  }

  async function transcribe(audio: EngineAudio, opts: TranscribeOptions): Promise<TranscribeResult> {
    if (closed) throw new EngineError('canceled', 'the whisper engine is closed');
    if (opts.signal?.aborted) throw new EngineError('canceled', 'transcription canceled');
    // Some bindings kill the whole process on an unknown code; never let one reach native code.
    if (opts.language !== 'auto' && !LANGUAGES.has(opts.language))
      throw new EngineError('unsupported_language', `Whisper does not know the language "${opts.language}"`);
    if (opts.speakers && !options.diarization) throw notConfigured();
    return run(audio, childJob(audio, opts), opts);
  }

  /** Runs one child for `job` and relays it; the result once it is done. */
  async function run(
    audio: EngineAudio,
    job: ChildJob,
    opts: Pick<TranscribeOptions, 'onProgress' | 'onSegment' | 'onStage' | 'signal'>,
  ): Promise<TranscribeResult> {
    let pcmSec: number;
    try {
      pcmSec = (await stat(audio.pcmPath)).size / PCM_BYTES_PER_SECOND;
    } catch (err) {
      throw new EngineError('engine_crashed', `cannot read the audio: ${(err as Error).message}`);
    }
    if (opts.signal?.aborted) throw new EngineError('canceled', 'transcription canceled');

    command ??= childCommand();
    const limitSec = audio.durationSec > 0 ? Math.min(audio.durationSec, pcmSec) : pcmSec;
    const relay = createRelay(job, opts, { limitSec, watchdogMs, modelName, logger: options.logger });
    try {
      const exit = await runChild({
        command,
        job,
        watchdogMs,
        signal: opts.signal,
        logger: options.logger,
        onSpawn: options.onSpawn,
        onMessage: relay.onMessage,
        running,
      });
      return relay.result(exit);
    } finally {
      relay.stop();
    }
  }

  return {
    name: 'whisper',
    transcribe,
    async ready(opts) {
      await options.provisioner?.ready(opts);
    },
    async speakersReady(opts) {
      const diarization = options.diarization;
      if (!diarization) throw notConfigured();
      if (checkDiarizationModels(diarization.paths).ok) return;
      for (const p of diarization.provisioners) await downloadWhileItWorks(p, opts);
      const check = checkDiarizationModels(diarization.paths);
      if (!check.ok) throw new EngineError(check.code, `speaker diarization: ${check.reason}`);
    },
    async identifySpeakers(audio, opts) {
      if (closed) throw new EngineError('canceled', 'the whisper engine is closed');
      if (!options.diarization) throw notConfigured();
      const job: ChildJob = {
        ...childJob(audio, { language: 'auto', speakers: { count: opts.count } }),
        transcribe: false,
      };
      const result = await run(audio, job, { signal: opts.signal });
      return result.speakerTurns ?? [];
    },
    start() {
      options.provisioner?.start();
    },
    async close() {
      closed = true;
      options.provisioner?.close();
      for (const p of options.diarization?.provisioners ?? []) p.close();
      const children = [...running.keys()];
      for (const cancel of running.values()) cancel();
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('close', () => resolve());
              setTimeout(resolve, KILL_SETTLE_MS).unref();
            }),
        ),
      );
    },
  };
}
