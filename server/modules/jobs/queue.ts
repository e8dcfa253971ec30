/** Thrown by a job handler for a failure worth trying again later (a crashed engine, a 5xx). */
export class RetryableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryableError';
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
  signal: AbortSignal;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
}

/**
 * Runs one transcription. It records the outcome on the transcript itself; it throws
 * RetryableError to be run again, and returns when the job is over (done, failed or canceled).
 */
export type JobHandler = (transcriptId: string, ctx: JobContext) => Promise<void>;

/** One queue interface: durable DB rows in process by default, BullMQ with REDIS_URL. */
export interface JobQueue {
  readonly kind: 'db' | 'bullmq';
  enqueue(transcriptId: string): Promise<void>;
  /** Drops a waiting job and tells a running one to stop. */
  cancel(transcriptId: string): Promise<void>;
  /** Starts consuming jobs in this process. */
  start(handler: JobHandler, concurrency: number): void;
  /** Stops taking jobs; running ones are handed back to the queue for the next run. */
  stop(): Promise<void>;
}

/** Backoff before retry n (1-based): 15 s, 60 s, 240 s … capped at 15 minutes. */
export function retryDelayMs(attempt: number): number {
  return Math.min(15_000 * 4 ** (attempt - 1), 15 * 60_000);
}

export const MAX_ATTEMPTS = 3;
