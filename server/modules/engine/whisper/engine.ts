// The local whisper.cpp engine (@napi-rs/whisper, see docs/decisions/0007-whisper-binding.md).
// Every transcription runs in a child process of its own (child.ts): the native code blocks the
// thread it runs on, can abort the process on bad input and cannot be interrupted, so the parent
// only watches, relays and kills.
import os from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WHISPER_LANGUAGES } from '../../../../common/whisper-languages';
import type { Logger } from '../../../logger';
import {
  EngineError,
  type Engine,
  type EngineAudio,
  type Segment,
  type SpeechRegion,
  type TranscribeOptions,
  type TranscribeResult,
} from '../types';
import { modelFileName } from '../models/catalogue';
import type { ModelProvisioner } from '../models/provision';
import type { ChildJob, ChildMessage } from './child';
import type { DiarizationPaths } from '../diarization/models';
import type { SpeakerTurn } from '../../../../common/speakers';
import { SERVER_BUNDLE_DIR } from '../../../paths';
import { spawnTied } from '../../../process/tied-spawn';

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
/** After 'done', the child has this long to exit by itself. */
const EXIT_GRACE_MS = 2000;
/** A SIGKILLed child is reaped in milliseconds; never wait longer than this to settle a cancel. */
const KILL_SETTLE_MS = 500;
const STDERR_TAIL = 4000;
/** Between the child's reports the bar moves on from the measured speed, this often. */
const TICK_MS = 1000;

const LANGUAGES = new Set<string>(WHISPER_LANGUAGES);

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

/**
 * How to start the child. From source (the tests, `npm run dev`) it is child.ts with tsx's loader
 * by absolute URL, so it depends neither on the working directory nor on NODE_OPTIONS; from the
 * compiled bundle (`npm start`, scripts/build-server.mjs) it is the bundle's own whisper-child.js,
 * which needs no loader.
 */
function childCommand(): { execArgv: string[]; script: string } {
  const self = fileURLToPath(import.meta.url);
  if (path.extname(self) !== '.ts')
    return { execArgv: ['--enable-source-maps'], script: path.join(SERVER_BUNDLE_DIR, 'whisper-child.js') };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { execArgv: ['--import', tsx], script: path.join(path.dirname(self), 'child.ts') };
}

export function createWhisperEngine(options: WhisperEngineOptions): Engine {
  const modelName = options.modelName ?? 'base';
  const watchdogMs = options.watchdogMs ?? DEFAULT_WATCHDOG_MS;
  /** Running children and how to cancel each one's job. */
  const running = new Map<ChildProcess, () => void>();
  let closed = false;
  let command: ReturnType<typeof childCommand> | undefined;

  async function transcribe(audio: EngineAudio, opts: TranscribeOptions): Promise<TranscribeResult> {
    if (closed) throw new EngineError('canceled', 'the whisper engine is closed');
    if (opts.signal?.aborted) throw new EngineError('canceled', 'transcription canceled');
    // Some bindings kill the whole process on an unknown code; never let one reach native code.
    if (opts.language !== 'auto' && !LANGUAGES.has(opts.language))
      throw new EngineError('unsupported_language', `Whisper does not know the language "${opts.language}"`);

    if (options.provisioner) await options.provisioner.ready({ signal: opts.signal });
    // A job that asked for speakers waits for the diarization models too.
    const diarization = opts.speakers ? options.diarization : undefined;
    if (opts.speakers && !diarization)
      throw new EngineError('model_missing', 'speaker diarization is not configured for this engine');
    if (diarization) {
      for (const p of diarization.provisioners) await p.ready({ signal: opts.signal });
    }
    try {
      const st = await stat(options.modelPath);
      if (!st.isFile()) throw new EngineError('model_invalid', `${options.modelPath} is not a file`);
    } catch (err) {
      if (err instanceof EngineError) throw err;
      throw new EngineError(
        'model_missing',
        `Whisper model not found at ${options.modelPath}. Download it with: npm run model:download -- ${modelName}`,
      );
    }
    try {
      await stat(audio.pcmPath);
    } catch (err) {
      throw new EngineError('engine_crashed', `cannot read the audio: ${(err as Error).message}`);
    }
    if (opts.signal?.aborted) throw new EngineError('canceled', 'transcription canceled');

    command ??= childCommand();
    const job: ChildJob = {
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
    return runChild(command, job, opts);
  }

  function runChild(
    cmd: { execArgv: string[]; script: string },
    job: ChildJob,
    opts: TranscribeOptions,
  ): Promise<TranscribeResult> {
    return new Promise<TranscribeResult>((resolve, reject) => {
      const child = spawnTied(process.execPath, [...cmd.execArgv, cmd.script, JSON.stringify(job)], {
        // fd 3 carries the child's messages; stdout stays unused (native code may print there).
        stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });

      const segments: Segment[] = [];
      const regions: SpeechRegion[] = [];
      let language: string | null = job.language === 'auto' ? null : job.language;
      let progress = 0;
      /** The chunk being decoded, to move the bar between reports: where it starts and ends (percent) and when. */
      let chunk: { from: number; to: number; startedAt: number; expectSec: number | null } | null = null;
      let speed: number | null = null;
      const fileSec = job.durationSec;
      let ticker: NodeJS.Timeout | undefined;
      let done = false;
      /** Speaker diarization: started (its models loading in native code), and its result. */
      let diarizing = false;
      let turns: SpeakerTurn[] | null = null;
      let childError: { code: string; message: string } | undefined;
      let failure: EngineError | Error | undefined;
      let stderrTail = '';
      let settled = false;
      let watchdog: NodeJS.Timeout | undefined;
      let exitTimer: NodeJS.Timeout | undefined;
      let settleTimer: NodeJS.Timeout | undefined;

      const cleanup = () => {
        clearInterval(ticker);
        clearTimeout(watchdog);
        clearTimeout(exitTimer);
        clearTimeout(settleTimer);
        opts.signal?.removeEventListener('abort', onAbort);
        running.delete(child);
      };
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        cleanup();
        fn();
      };
      const kill = () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      };
      /** Ends the job with `err`: kills the child, and rejects once it is gone (or soon anyway). */
      const fail = (err: EngineError | Error) => {
        if (failure) return;
        failure = err;
        kill();
        settleTimer = setTimeout(() => settle(() => reject(err)), KILL_SETTLE_MS);
      };
      const armWatchdog = (ms = watchdogMs) => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => {
          options.logger?.warn(
            { pid: child.pid, watchdogMs: ms },
            'whisper child silent too long: killing it',
          );
          fail(
            new EngineError('engine_timeout', `the whisper engine gave no sign of life for ${ms} ms`, true),
          );
        }, ms);
      };
      function onAbort() {
        fail(new EngineError('canceled', 'transcription canceled'));
      }
      running.set(child, () => fail(new EngineError('canceled', 'the whisper engine is closed')));

      /**
       * Seconds of compute left at the measured speed: the speech still ahead (known regions, and
       * for the part not analysed yet the share of speech found so far), or the rest of the audio.
       */
      const remaining = (percent: number): number | null => {
        if (!speed || !fileSec) return null;
        const at = (percent / 100) * fileSec;
        if (!job.detectSpeech) return Math.max(0, Math.round((fileSec - at) / speed));
        let before = 0;
        let after = 0;
        for (const r of regions) {
          before += Math.max(0, Math.min(r.end, at) - r.start);
          after += Math.max(0, r.end - Math.max(r.start, at));
        }
        const known = regions[regions.length - 1]?.end ?? 0;
        const ratio = at > 1 ? Math.min(1, before / at) : 1;
        return Math.max(0, Math.round((after + Math.max(0, fileSec - Math.max(known, at)) * ratio) / speed));
      };
      const setProgress = (value: number) => {
        const p = Math.min(100, Math.max(0, Math.floor(value * 10) / 10));
        if (p <= progress) return;
        progress = p;
        opts.onProgress?.(p, { percent: p, remainingSec: p >= 100 ? 0 : remaining(p) });
      };
      // While a chunk decodes, move the bar at the measured speed, never past 95 % of the chunk.
      const tick = () => {
        if (!chunk || chunk.expectSec === null) return;
        const elapsed = (Date.now() - chunk.startedAt) / 1000;
        const share = Math.min(0.95, elapsed / Math.max(0.5, chunk.expectSec));
        setProgress(Math.min(99.9, chunk.from + (chunk.to - chunk.from) * share));
      };

      const handle = (msg: ChildMessage) => {
        switch (msg.t) {
          case 'loaded':
            options.logger?.debug({ pid: child.pid, ms: msg.ms }, 'whisper model loaded');
            break;
          case 'stage':
            opts.onStage?.(msg.stage);
            break;
          case 'regions':
            regions.push(...msg.regions);
            break;
          case 'chunk': {
            speed = msg.speed ?? speed;
            const pct = (t: number) => (fileSec > 0 ? Math.min(99.9, (t / fileSec) * 100) : 0);
            // Before the first chunk is measured, assume real time: the first chunk is short.
            const expect = msg.audioSec / (msg.speed ?? 1);
            chunk = { from: pct(msg.from), to: pct(msg.to), startedAt: Date.now(), expectSec: expect };
            setProgress(chunk.from);
            ticker ??= setInterval(tick, TICK_MS);
            break;
          }
          case 'progress':
            speed = msg.speed;
            if (chunk) chunk.expectSec = null;
            // 100 is reserved for the very end, once every segment is in.
            setProgress(Math.min(99.9, msg.percent));
            break;
          case 'language':
            language = msg.code;
            break;
          case 'segment': {
            const prev = segments[segments.length - 1];
            const start = Math.max(msg.start, prev?.end ?? 0);
            if (!(msg.end > start) || !msg.text) break;
            const segment: Segment = { start, end: msg.end, text: msg.text };
            if (msg.words?.length) segment.words = msg.words;
            segments.push(segment);
            opts.onSegment?.(segment);
            break;
          }
          case 'diarizing':
            diarizing = true;
            // Diarization reports nothing until it is done: allow it up to the audio's own length.
            armWatchdog(Math.max(watchdogMs, job.durationSec * 1000));
            break;
          case 'speakers':
            turns = msg.turns;
            break;
          case 'done':
            done = true;
            language = msg.language ?? language;
            // The child exits by itself right after 'done'; make sure it does.
            exitTimer = setTimeout(kill, EXIT_GRACE_MS);
            break;
          case 'error':
            childError = { code: msg.code, message: msg.message };
            break;
        }
      };

      opts.signal?.addEventListener('abort', onAbort, { once: true });
      armWatchdog();
      child.on('spawn', () => {
        try {
          if (child.pid !== undefined) options.onSpawn?.(child.pid);
        } catch (err) {
          fail(err instanceof Error ? err : new Error(String(err)));
        }
      });
      child.on('error', (err) => {
        fail(new EngineError('engine_crashed', `cannot run the whisper child: ${err.message}`, true));
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL);
      });
      const lines = createInterface({ input: child.stdio[3] as Readable, crlfDelay: Infinity });
      lines.on('line', (line) => {
        if (!line || settled || failure) return;
        armWatchdog();
        let msg: ChildMessage;
        try {
          msg = JSON.parse(line) as ChildMessage;
        } catch {
          options.logger?.warn({ line: line.slice(0, 200) }, 'unreadable message from the whisper child');
          return;
        }
        try {
          handle(msg);
        } catch (err) {
          // A throwing onSegment/onProgress ends the job with its own error.
          fail(err instanceof Error ? err : new Error(String(err)));
        }
      });

      child.on('close', (code, signal) => {
        settle(() => {
          if (failure) return reject(failure);
          if (childError) {
            const message = childError.message;
            if (
              message.startsWith('speaker diarization:') &&
              (childError.code === 'model_invalid' || childError.code === 'model_missing')
            )
              return reject(
                new EngineError(childError.code, `the speaker diarization models cannot be used: ${message}`),
              );
            if (childError.code === 'model_invalid')
              return reject(
                new EngineError('model_invalid', `the Whisper model cannot be loaded: ${message}`),
              );
            return reject(new EngineError('engine_crashed', message));
          }
          // Once 'done' has arrived the transcript is complete, however the child then exits.
          if (done) {
            try {
              setProgress(100);
            } catch (err) {
              return reject(err instanceof Error ? err : new Error(String(err)));
            }
            return resolve({
              language,
              segments,
              speechRegions: job.detectSpeech ? regions : null,
              ...(job.diarize ? { speakerTurns: turns ?? [] } : {}),
            });
          }
          if (diarizing && !turns) {
            // The native library aborts the process on a model file it cannot parse.
            const detail = stderrTail.trim().split('\n').slice(-2).join(' | ');
            options.logger?.warn(
              { code, signal, stderr: stderrTail.slice(-1000) },
              'speaker diarization died',
            );
            return reject(
              new EngineError(
                'model_invalid',
                `the speaker diarization models cannot be loaded${detail ? `: ${detail}` : ''}`,
              ),
            );
          }
          const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
          const detail = stderrTail.trim().split('\n').slice(-3).join(' | ');
          options.logger?.warn({ code, signal, stderr: stderrTail.slice(-1000) }, 'whisper child died');
          reject(
            new EngineError(
              'engine_crashed',
              `the whisper engine ${how}${detail ? `: ${detail}` : ''}`,
              true,
            ),
          );
        });
      });
    });
  }

  return {
    name: 'whisper',
    transcribe,
    async ready(opts) {
      if (options.provisioner) await options.provisioner.ready(opts);
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
