// A sherpa-onnx offline recognizer (Parakeet TDT, SenseVoice) as an engine. It runs in the same
// child process as Whisper (whisper/child-run.ts with a sherpa decoder): the same speech detection,
// chunks ending at pauses, words regrouped into sentences, diarization, progress, cancel = kill.
import type { ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import type { Logger } from '../../../logger';
import { PCM_BYTES_PER_SECOND } from '../../media/decode';
import type { DiarizationPaths } from '../../speakers/diarization/models';
import type { ModelProvisioner } from '../models/provision';
import { EngineError, type Engine, type TranscribeOptions } from '../types';
import { childCommand, type ChildCommand } from '../whisper/child-command';
import type { ChildJob } from '../whisper/child-protocol';
import { createRelay } from '../whisper/relay';
import { KILL_SETTLE_MS, runChild } from '../whisper/run-child';
import type { SherpaFamilySpec, SherpaPaths } from './families';

export interface SherpaEngine extends Engine {
  /** What the transcript records as the model that made it. */
  readonly model: string;
  /** Whether every model file is on disk now. */
  hasModels(): boolean;
  /** Whether a download has failed or is off (the files will not come soon). */
  unavailable(): boolean;
  /**
   * Resolves once every file is there, reporting the download as one bar (files weighted by size).
   * `failFast`: give up at the first failed attempt (a family picked by language, not by the user,
   * does not keep a job waiting: Whisper does it instead).
   */
  ready(opts: Parameters<NonNullable<Engine['ready']>>[0] & { failFast?: boolean }): Promise<void>;
}

export interface SherpaEngineOptions {
  spec: SherpaFamilySpec;
  paths: SherpaPaths;
  /** One per file: fetches it on first need (models/provision.ts). */
  provisioners: ModelProvisioner[];
  diarization?: { paths: DiarizationPaths; provisioners: ModelProvisioner[] };
  threads?: number;
  watchdogMs?: number;
  /** Longest audio per recognizer pass, in seconds (default 30: the models are trained on utterances). */
  maxChunkSec?: number;
  /** Audio in the first chunk, in seconds (default 10: the first words come within seconds). */
  firstChunkSec?: number;
  logger?: Pick<Logger, 'debug' | 'warn'>;
  onSpawn?: (pid: number) => void;
}

/** A provisioner's ready(), rejected with model_unavailable as soon as an attempt has failed. */
async function readyOrGiveUp(
  p: ModelProvisioner,
  opts: { signal?: AbortSignal; onProgress?: (percent: number) => void },
  label: string,
): Promise<void> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const watch = setInterval(() => {
    if (['retrying', 'missing'].includes(p.state().state)) stop.abort();
  }, 200);
  try {
    await p.ready({ signal: stop.signal, onProgress: opts.onProgress });
  } catch (err) {
    if (opts.signal?.aborted || !stop.signal.aborted) throw err;
    throw new EngineError(
      'model_unavailable',
      `the ${label} model could not be fetched (${p.state().state})`,
    );
  } finally {
    clearInterval(watch);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

const LABELS: Record<SherpaFamilySpec['family'], string> = {
  parakeet: 'Parakeet',
  'sense-voice': 'SenseVoice',
};

export function createSherpaEngine(o: SherpaEngineOptions): SherpaEngine {
  const watchdogMs = o.watchdogMs ?? 10 * 60_000;
  const label = LABELS[o.spec.family];
  const running = new Map<ChildProcess, () => void>();
  let command: ChildCommand | undefined;
  let closed = false;

  function childJob(pcmPath: string, durationSec: number, opts: TranscribeOptions): ChildJob {
    const threads = o.threads ?? Math.min(4, os.availableParallelism());
    return {
      modelPath: o.paths.encoder ?? o.paths.model ?? '',
      recognizer: { family: o.spec.family, paths: o.paths },
      pcmPath,
      durationSec,
      language: opts.language,
      translate: false,
      threads,
      maxChunkSec: o.maxChunkSec ?? 30,
      targetChunkComputeSec: Math.min(30, watchdogMs / 4000),
      detectSpeech: opts.detectSpeech ?? true,
      words: true,
      firstChunkSec: o.firstChunkSec ?? 10,
      ...(opts.speakers && o.diarization
        ? { diarize: { ...o.diarization.paths, speakers: opts.speakers.count, threads } }
        : {}),
    };
  }

  return {
    name: o.spec.family,
    model: o.spec.model,
    hasModels() {
      return Object.values(o.paths).every((file) => {
        try {
          return statSync(file).isFile();
        } catch {
          return false;
        }
      });
    },
    unavailable() {
      return o.provisioners.some((p) => ['retrying', 'missing'].includes(p.state().state));
    },
    async ready(opts) {
      const sizes = o.spec.files.map((f) => f.mb);
      const total = sizes.reduce((a, b) => a + b, 0) || 1;
      let before = 0;
      for (const [i, p] of o.provisioners.entries()) {
        const share = sizes[i] ?? 0;
        const onProgress = (percent: number) =>
          opts.onProgress?.(((before + (share * percent) / 100) / total) * 100);
        if (!opts.failFast) await p.ready({ signal: opts.signal, onProgress });
        else await readyOrGiveUp(p, { signal: opts.signal, onProgress }, label);
        before += share;
      }
      if (opts.speakers)
        for (const p of o.diarization?.provisioners ?? []) await p.ready({ signal: opts.signal });
    },
    async transcribe(audio, opts) {
      if (closed) throw new EngineError('canceled', `the ${label} engine is closed`);
      if (opts.signal?.aborted) throw new EngineError('canceled', 'transcription canceled');
      if (opts.translate)
        throw new EngineError('unsupported_language', `${label} does not translate; Whisper does`);
      if (opts.speakers && !o.diarization)
        throw new EngineError('model_missing', 'speaker diarization is not configured for this engine');
      let pcmSec: number;
      try {
        pcmSec = (await stat(audio.pcmPath)).size / PCM_BYTES_PER_SECOND;
      } catch (err) {
        throw new EngineError('engine_crashed', `cannot read the audio: ${(err as Error).message}`);
      }
      command ??= childCommand();
      const job = childJob(audio.pcmPath, audio.durationSec, opts);
      const limitSec = audio.durationSec > 0 ? Math.min(audio.durationSec, pcmSec) : pcmSec;
      const relay = createRelay(job, opts, {
        limitSec,
        watchdogMs,
        modelName: o.spec.family,
        label,
        logger: o.logger,
      });
      try {
        const exit = await runChild({
          command,
          job,
          watchdogMs,
          signal: opts.signal,
          logger: o.logger,
          onSpawn: o.onSpawn,
          onMessage: relay.onMessage,
          running,
        });
        return { ...relay.result(exit), model: o.spec.model };
      } finally {
        relay.stop();
      }
    },
    start() {
      for (const p of o.provisioners) p.start();
    },
    async close() {
      closed = true;
      for (const p of o.provisioners) p.close();
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
