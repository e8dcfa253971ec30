import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../../logger';
import type { TranscriptEvents } from './events';
import { JobInterruptedError, MAX_ATTEMPTS, RetryableError, retryDelayMs, type JobQueue } from './queue';

export const QUEUE_NAME = 'clipscribe-transcriptions';

interface Payload {
  transcriptId: string;
}

/**
 * BullMQ on Redis: any number of `npm run worker` processes on any machines consume the queue.
 * A worker that dies mid-job loses its lock and BullMQ hands the job to another (stalled-job
 * check); progress and segments reach the web processes through the Redis event channel.
 */
export function createBullQueue(opts: {
  url: string;
  events: TranscriptEvents;
  logger: Logger;
  maxAttempts?: number;
  /** Lock time; a killed worker's job is taken up again within about this long. */
  lockMs?: number;
  prefix?: string;
}): JobQueue {
  const { events, logger } = opts;
  const maxAttempts = opts.maxAttempts ?? MAX_ATTEMPTS;
  const lockMs = opts.lockMs ?? 30_000;
  const connection = new Redis(opts.url, { maxRetriesPerRequest: null });
  connection.on('error', (err) => logger.warn({ err: err.message }, 'queue redis error'));
  const prefix = opts.prefix ?? 'clipscribe';
  const queue = new Queue<Payload>(QUEUE_NAME, { connection, prefix });
  let worker: Worker<Payload> | null = null;
  const running = new Map<string, AbortController>();

  const add = (transcriptId: string) =>
    queue.add(
      'transcribe',
      { transcriptId },
      {
        attempts: maxAttempts,
        backoff: { type: 'custom' },
        removeOnComplete: 1000,
        removeOnFail: 5000,
      },
    );

  return {
    kind: 'bullmq',
    async enqueue(transcriptId) {
      await add(transcriptId);
    },
    async cancel(transcriptId) {
      // A waiting job of a canceled transcript finds it canceled and does nothing.
      events.publish(transcriptId, { type: 'cancel' });
    },
    start(handler, concurrency) {
      worker = new Worker<Payload>(
        QUEUE_NAME,
        async (job) => {
          const { transcriptId } = job.data;
          const controller = new AbortController();
          running.set(job.id!, controller);
          const unsubscribe = events.subscribe(transcriptId, (e) => {
            if (e.type === 'cancel') controller.abort('cancel');
          });
          try {
            await handler(transcriptId, {
              signal: controller.signal,
              attempt: job.attemptsMade + 1,
              maxAttempts,
            });
          } catch (err) {
            // Handed back at shutdown: queue it again for whichever worker runs next.
            if (err instanceof JobInterruptedError) return void (await add(transcriptId));
            if (err instanceof RetryableError) throw err;
            throw new UnrecoverableError(err instanceof Error ? err.message : String(err));
          } finally {
            unsubscribe();
            running.delete(job.id!);
          }
        },
        {
          connection: connection.duplicate(),
          prefix,
          concurrency: Math.max(1, concurrency),
          lockDuration: lockMs,
          stalledInterval: lockMs,
          maxStalledCount: 2,
          settings: { backoffStrategy: (attemptsMade: number) => retryDelayMs(attemptsMade) },
        },
      );
      worker.on('error', (err) => logger.warn({ err: err.message }, 'worker error'));
    },
    async stop() {
      for (const controller of running.values()) controller.abort('shutdown');
      if (worker) await worker.close();
      await queue.close();
      await connection.quit().catch(() => undefined);
    },
  };
}
