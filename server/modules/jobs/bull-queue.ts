import { Queue, UnrecoverableError, Worker, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../../logger';
import type { TranscriptEvents } from './events';
import { JOB_SPECS, keepsDone, type JobLane, type JobName } from './job-map';
import {
  JobInterruptedError,
  MAX_ATTEMPTS,
  RetryableError,
  cancelChannel,
  retryDelayMs,
  type JobContext,
  type JobQueue,
} from './queue';

/** One BullMQ queue per lane; the transcription lane keeps the name it has always had. */
export const LANE_QUEUES: Record<JobLane, string> = {
  transcription: 'clipscribe-transcriptions',
  downloads: 'clipscribe-downloads',
  background: 'clipscribe-background',
};

type AnyHandler = (payload: unknown, ctx: JobContext) => Promise<void>;

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
  const queues = new Map<JobLane, Queue>();
  const workers: Worker[] = [];
  const running = new Map<string, AbortController>();

  const queueOf = (name: JobName) => {
    const lane = JOB_SPECS[name].lane;
    let q = queues.get(lane);
    if (!q) {
      q = new Queue(LANE_QUEUES[lane], { connection, prefix });
      queues.set(lane, q);
    }
    return q;
  };
  const jobOptions = (name: JobName): JobsOptions => ({
    attempts: maxAttempts,
    backoff: { type: 'custom' },
    removeOnComplete: keepsDone(name) ? 1000 : true,
    removeOnFail: 5000,
  });
  interface Data {
    payload: unknown;
    key?: string;
  }
  const add = async (name: JobName, data: Data, o: { once?: boolean; delayMs?: number } = {}) => {
    await queueOf(name).add(name, data, {
      ...jobOptions(name),
      delay: o.delayMs,
      // A job id that is still in the queue makes BullMQ skip the add.
      jobId: o.once && data.key !== undefined ? `${name}:${data.key}` : undefined,
    });
  };

  return {
    kind: 'bullmq',
    add: (name, payload, o = {}) => add(name, { payload, key: o.key }, o),
    async every(name, payload, everyMs) {
      await queueOf(name).upsertJobScheduler(
        `every:${name}`,
        { every: everyMs },
        { name, data: { payload }, opts: jobOptions(name) },
      );
    },
    async cancel(name, key) {
      // A waiting job finds its subject canceled and does nothing; a running one gets the signal.
      events.publish(cancelChannel(name, key), { type: 'cancel' });
    },
    work(lane, handlers, concurrency) {
      const byName = handlers as unknown as Record<string, AnyHandler>;
      const worker = new Worker<Data>(
        LANE_QUEUES[lane],
        async (job) => {
          const name = job.name as JobName;
          const handler = byName[name];
          if (!handler) throw new UnrecoverableError(`no handler for job ${name}`);
          // Jobs queued before jobs had names carried the transcript id alone.
          const legacy = !('payload' in job.data);
          const payload = legacy ? job.data : job.data.payload;
          const key = legacy ? (job.data as unknown as { transcriptId: string }).transcriptId : job.data.key;
          const controller = new AbortController();
          running.set(job.id!, controller);
          const unsubscribe = key
            ? events.subscribe(cancelChannel(name, key), (e) => {
                if (e.type === 'cancel') controller.abort('cancel');
              })
            : () => undefined;
          try {
            await handler(payload, {
              signal: controller.signal,
              attempt: job.attemptsMade + 1,
              maxAttempts,
            });
          } catch (err) {
            // Handed back at shutdown: queue it again for whichever worker runs next.
            if (err instanceof JobInterruptedError) return void (await add(name, job.data));
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
      workers.push(worker);
    },
    async stop() {
      for (const controller of running.values()) controller.abort('shutdown');
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all([...queues.values()].map((q) => q.close()));
      await connection.quit().catch(() => undefined);
    },
  };
}
