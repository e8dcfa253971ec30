// What the whisper child's messages mean to the caller: progress (progress.ts), clean segments
// (../segment-stream.ts), stages, the language, the speakers; and, once the child is gone, the
// result or the reason it failed.
import type { SpeakerTurn } from '../../../../common/speakers';
import type { Logger } from '../../../logger';
import { createSegmentStream } from '../segment-stream';
import {
  EngineError,
  type EngineProgress,
  type SpeechRegion,
  type TranscribeOptions,
  type TranscribeResult,
} from '../types';
import type { ChildJob, ChildMessage } from './child-protocol';
import { createProgressEstimator } from './progress';
import type { ChildControl, ChildExit } from './run-child';

/** Between the child's reports the bar moves on from the measured speed, this often. */
const TICK_MS = 1000;

export interface Relay {
  onMessage(msg: ChildMessage, control: ChildControl): void;
  /** The result once the child has exited (throws the EngineError that ends the job otherwise). */
  result(exit: ChildExit): TranscribeResult;
  /** Stops the progress ticker (always call it, however the run ended). */
  stop(): void;
}

export function createRelay(
  job: ChildJob,
  opts: Pick<TranscribeOptions, 'onProgress' | 'onSegment' | 'onStage' | 'onLanguage'>,
  env: {
    limitSec: number;
    watchdogMs: number;
    /** The name `npm run model:download` knows the model by, for the missing model's message. */
    modelName: string;
    /** What the model is called in messages (default 'Whisper'). */
    label?: string;
    logger?: Pick<Logger, 'debug' | 'warn'>;
  },
): Relay {
  const estimator = createProgressEstimator({
    fileSec: job.durationSec,
    detectSpeech: job.detectSpeech !== false,
    diarize: Boolean(job.diarize),
  });
  const stream = createSegmentStream(env.limitSec, opts.onSegment);
  const regions: SpeechRegion[] = [];
  let language: string | null = job.language === 'auto' ? null : job.language;
  let ticker: NodeJS.Timeout | undefined;
  let done = false;
  /** Speaker diarization: started (its models loading in native code), and its result. */
  let diarizing = false;
  /** The model loading in native code (between 'transcribing' and 'loaded'). */
  let loading = false;
  const label = env.label ?? 'Whisper';
  let turns: SpeakerTurn[] | null = null;
  let childError: { code: string; message: string } | undefined;
  /** A progress listener that threw between messages: the job ends with it at the next one. */
  let tickError: unknown;

  const report = (p: EngineProgress | null) => {
    if (p) opts.onProgress?.(p.percent, p);
  };
  const startTicker = () => {
    ticker ??= setInterval(() => {
      try {
        report(estimator.tick(Date.now()));
      } catch (err) {
        tickError ??= err;
      }
    }, TICK_MS);
  };

  return {
    onMessage(msg, control) {
      if (tickError) throw tickError;
      switch (msg.t) {
        case 'loaded':
          loading = false;
          env.logger?.debug({ ms: msg.ms, model: label }, 'model loaded');
          break;
        case 'stage':
          if (msg.stage === 'transcribing') loading = true;
          opts.onStage?.(msg.stage);
          break;
        case 'regions':
          regions.push(...msg.regions);
          estimator.addRegions(msg.regions);
          break;
        case 'chunk':
          report(estimator.chunkStarted(msg, Date.now()));
          startTicker();
          break;
        case 'progress':
          report(estimator.chunkDone(msg));
          break;
        case 'language':
          language = msg.code;
          opts.onLanguage?.(msg.code);
          break;
        case 'segment':
          stream.push({
            start: msg.start,
            end: msg.end,
            text: msg.text,
            ...(msg.words ? { words: msg.words } : {}),
          });
          break;
        case 'diarizing':
          diarizing = true;
          opts.onStage?.('speakers');
          report(estimator.diarizing(Date.now()));
          startTicker();
          // Diarization reports nothing until it is done: allow it up to the audio's own length.
          control.armWatchdog(Math.max(env.watchdogMs, job.durationSec * 1000));
          break;
        case 'speakers':
          turns = msg.turns;
          break;
        case 'done':
          done = true;
          language = msg.language ?? language;
          control.expectExit();
          break;
        case 'error':
          childError = { code: msg.code, message: msg.message };
          break;
      }
    },
    stop() {
      clearInterval(ticker);
    },
    result({ code, signal, stderrTail }) {
      clearInterval(ticker);
      if (tickError) throw tickError;
      if (childError) throw childFailure(childError, env.modelName, label);
      // Once 'done' has arrived the transcript is complete, however the child then exits.
      if (done) {
        report(estimator.finish());
        return {
          language,
          segments: stream.segments,
          speechRegions: job.detectSpeech !== false ? regions : null,
          ...(job.diarize ? { speakerTurns: turns ?? [] } : {}),
        };
      }
      if (diarizing && !turns) {
        // The native library aborts the process on a model file it cannot parse.
        const detail = stderrTail.trim().split('\n').slice(-2).join(' | ');
        env.logger?.warn({ code, signal, stderr: stderrTail.slice(-1000) }, 'speaker diarization died');
        throw new EngineError(
          'model_invalid',
          `the speaker diarization models cannot be loaded${detail ? `: ${detail}` : ''}`,
        );
      }
      if (loading && job.recognizer) {
        // sherpa-onnx exits the process on a model it cannot use (a bad file, a wrong interface).
        const detail = stderrTail.trim().split('\n').slice(-2).join(' | ');
        env.logger?.warn({ code, signal, stderr: stderrTail.slice(-1000) }, `${label} model load died`);
        throw new EngineError('model_invalid', `the ${label} model cannot be loaded${detail ? `: ${detail}` : ''}`);
      }
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const detail = stderrTail.trim().split('\n').slice(-3).join(' | ');
      env.logger?.warn({ code, signal, stderr: stderrTail.slice(-1000) }, 'whisper child died');
      throw new EngineError(
        'engine_crashed',
        `the whisper engine ${how}${detail ? `: ${detail}` : ''}`,
        true,
      );
    },
  };
}

/** The reason a child reported before giving up. */
function childFailure(
  { code, message }: { code: string; message: string },
  modelName: string,
  label: string,
): EngineError {
  if (message.startsWith('speaker diarization:') && (code === 'model_invalid' || code === 'model_missing'))
    return new EngineError(code, `the speaker diarization models cannot be used: ${message}`);
  if (code === 'model_invalid')
    return new EngineError('model_invalid', `the ${label} model cannot be loaded: ${message}`);
  if (code === 'model_missing')
    return new EngineError(
      'model_missing',
      `${label} model not found (${message}). Download it with: npm run model:download -- ${modelName}`,
    );
  return new EngineError('engine_crashed', message);
}
