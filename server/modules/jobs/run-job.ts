import { performance } from 'node:perf_hooks';
import { withLogContext, type Logger } from '../../logger';
import { isDependencyOutage } from '../../outage';
import type { JobLane, JobName } from './job-map';
import { JobInterruptedError, RetryableError } from './queue';

export interface JobRun {
  id: string;
  name: JobName;
  key: string | null;
  lane: JobLane;
  /** The request that queued it. */
  reqId?: string;
}

/** How a job's run ended, as the logs and the metrics name it. */
export type JobOutcome = 'done' | 'retry' | 'handed_back' | 'failed';

export function outcomeOf(err: unknown): JobOutcome {
  if (!err) return 'done';
  if (err instanceof JobInterruptedError || isDependencyOutage(err)) return 'handed_back';
  if (err instanceof RetryableError) return 'retry';
  return 'failed';
}

type Observer = (run: JobRun, outcome: JobOutcome, seconds: number) => void;
const observers = new Set<Observer>();

/** Told of every job run that ends in this process (the metrics). */
export function observeJobs(observer: Observer): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/**
 * Runs one job with its ids in the log context (every line it writes carries jobId, jobName,
 * jobKey and the reqId of the request that queued it), logging its start and its end: the
 * transcription and download lanes at info, the frequent background jobs at debug, failures
 * always.
 */
export function runJob(logger: Logger, run: JobRun, fn: () => Promise<void>): Promise<void> {
  return withLogContext({ jobId: run.id, jobName: run.name, jobKey: run.key, reqId: run.reqId }, async () => {
    const quiet = run.lane === 'background';
    const started = performance.now();
    (quiet ? logger.debug : logger.info).call(logger, { lane: run.lane }, 'job started');
    let error: unknown = null;
    try {
      await fn();
    } catch (err) {
      error = err;
      throw err;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      const outcome = outcomeOf(error);
      const fields = { lane: run.lane, outcome, ms: Math.round(seconds * 1000) };
      if (outcome === 'failed') logger.error({ ...fields, err: error }, 'job failed');
      else if (outcome === 'done') (quiet ? logger.debug : logger.info).call(logger, fields, 'job done');
      else logger.warn({ ...fields, err: (error as Error).message }, 'job ended early');
      for (const observer of observers) observer(run, outcome, seconds);
    }
  });
}
