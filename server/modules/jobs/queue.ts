import type { DbOrTx } from '../../db/client';
import type { JobLane, JobMap, JobName, LaneJobs } from './job-map';

/** Thrown by a job handler for a failure worth trying again later (a crashed engine, a 5xx). */
export class RetryableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryableError';
  }
}

/** The queue's store (Redis) cannot take the job now; the HTTP edge answers 503 for it. */
export class QueueUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the job queue is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'QueueUnavailableError';
  }
}

/** Thrown by a job handler that stopped because the process is shutting down: run it again. */
export class JobInterruptedError extends Error {
  constructor() {
    super('Interrupted by shutdown');
    this.name = 'JobInterruptedError';
  }
}

export interface JobContext {
  /** Aborted with reason 'cancel' (cancel(name, key)) or 'shutdown'. */
  signal: AbortSignal;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
}

/**
 * Runs one job. It throws RetryableError to be run again later, JobInterruptedError to be handed
 * back at shutdown, anything else to fail for good; returning means the job is over.
 */
export type JobHandler<N extends JobName> = (payload: JobMap[N], ctx: JobContext) => Promise<void>;

/** The handlers of one lane: one for each of its job names. */
export type LaneHandlers<L extends JobLane> = { [N in LaneJobs<L>]: JobHandler<N> };

export interface AddOptions {
  /** What the job is about (a transcript id, a model name): cancel(name, key) reaches it. */
  key?: string;
  /** With a key: nothing is added while a job of this name and key waits or runs. */
  once?: boolean;
  /** Run no sooner than this many milliseconds from now. */
  delayMs?: number;
  /**
   * BullMQ: the job's id, so two processes adding the same job at once (two recovery sweeps)
   * add it once. The database queue needs none (its sweeps never overlap).
   */
  dedupeId?: string;
}

/** A job being run, as the logs name it. */
export interface RunningJob {
  id: string;
  name: JobName;
  key: string | null;
  lane: JobLane;
}

/** One queue for every job (server/modules/jobs/job-map.ts): DB rows by default, BullMQ with REDIS_URL. */
export interface JobQueue {
  readonly kind: 'db' | 'bullmq';
  add<N extends JobName>(name: N, payload: JobMap[N], opts?: AddOptions): Promise<void>;
  /**
   * The database queue only: adds the job inside the caller's transaction, so the job exists if
   * and only if the transaction commits. A queue outside the database has none: add after it.
   */
  addInTransaction?<N extends JobName>(
    tx: DbOrTx,
    name: N,
    payload: JobMap[N],
    opts?: AddOptions,
  ): Promise<void>;
  /**
   * Runs `name` every `everyMs`, first after one interval. Durable and single: however many
   * processes declare the same schedule, and however often they restart, one run is due at a time.
   */
  every<N extends JobName>(name: N, payload: JobMap[N], everyMs: number): Promise<void>;
  /** Drops waiting jobs of this name and key and tells a running one to stop (signal reason 'cancel'). */
  cancel(name: JobName, key: string): Promise<void>;
  /** The keys of this name's jobs that wait or run (the recovery sweep's question). */
  liveKeys(name: JobName): Promise<Set<string>>;
  /** Jobs waiting (due or delayed) and running, per lane, for metrics and readiness. */
  depth(): Promise<Record<JobLane, { waiting: number; running: number }>>;
  /** Starts consuming one lane's jobs in this process, `concurrency` at a time. */
  work<L extends JobLane>(lane: L, handlers: LaneHandlers<L>, concurrency: number): void;
  /** Stops taking jobs; running ones are handed back to the queue for the next run. */
  stop(): Promise<void>;
}

/** Backoff before retry n (1-based): 15 s, 60 s, 240 s … capped at 15 minutes. */
export function retryDelayMs(attempt: number): number {
  return Math.min(15_000 * 4 ** (attempt - 1), 15 * 60_000);
}

export const MAX_ATTEMPTS = 3;

/** The signal channel a job's cancel goes out on (the transcript events bus, keyed by string). */
export const cancelChannel = (name: JobName, key: string) =>
  name === 'transcribe' ? key : `job:${name}:${key}`;
