import {
  DelayedError,
  Queue,
  UnrecoverableError,
  Worker,
  type Job,
  type JobType,
  type JobsOptions,
} from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../../logger';
import { isDependencyOutage } from '../../outage';
import type { TranscriptEvents } from './events';
import { isRecoverable, JOB_SPECS, keepsDone, type JobLane, type JobName } from './job-map';
import {
  JobInterruptedError,
  MAX_ATTEMPTS,
  QueueUnavailableError,
  RetryableError,
  cancelChannel,
  retryDelayMs,
  type JobContext,
  type JobQueue,
} from './queue';
import { runJob } from './run-job';

/** One BullMQ queue per lane; the transcription lane keeps the name it has always had. */
export const LANE_QUEUES: Record<JobLane, string> = {
  transcription: 'clipscribe-transcriptions',
  downloads: 'clipscribe-downloads',
  background: 'clipscribe-background',
  render: 'clipscribe-renders',
  language: 'clipscribe-language',
  ask: 'clipscribe-ask',
};

type AnyHandler = (payload: unknown, ctx: JobContext) => Promise<void>;
type AddOptionsInternal = { once?: boolean; delayMs?: number; dedupeId?: string };

/** A job stopped by a dependency's outage runs again this much later, its attempt unspent. */
const OUTAGE_RETRY_MS = 15_000;
/** An add that Redis has not confirmed by then fails (the caller answers 503, or the sweep re-adds). */
const ADD_TIMEOUT_MS = 5_000;
/**
 * Recoverable adds that failed while Redis was away, kept to be added again the moment it is back;
 * past this many the recovery sweep alone finds the rest (a minute after their rows went quiet).
 */
const MAX_HELD_ADDS = 10_000;
/** How long stop() waits for a worker or queue to close before cutting its connection. */
const CLOSE_GRACE_MS = 5_000;

/** Whether `p` settles within `ms` (its result or error does not matter here). */
const settlesWithin = (p: Promise<unknown>, ms: number) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    p.then(
      () => resolve(true),
      () => resolve(true),
    ).finally(() => clearTimeout(timer));
  });

const LIVE_STATES: JobType[] = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'];

interface Data {
  payload: unknown;
  key?: string;
  /** The request that queued the job, for the logs (server/logger.ts). */
  reqId?: string;
}

/**
 * BullMQ on Redis: any number of `npm run worker` processes on any machines consume the queue.
 * A worker that dies mid-job loses its lock and BullMQ hands the job to another (stalled-job
 * check); progress and segments reach the web processes through the Redis event channel.
 *
 * Redis going away: adding fails at once (no offline queue: a request never hangs for the
 * outage) with QueueUnavailableError, except for recoverable jobs (job-map.ts), which are added
 * again the moment the connection is back (and by the recovery sweep from the database, should
 * this process die first). Recurring schedules are declared again whenever the
 * connection comes back (a Redis restarted without its data has lost them).
 */
export function createBullQueue(opts: {
  url: string;
  events: TranscriptEvents;
  logger: Logger;
  maxAttempts?: number;
  /** Lock time; a killed worker's job is taken up again within about this long. */
  lockMs?: number;
  prefix?: string;
  /** The current request's id, stored with each job added (server/logger.ts). */
  requestId?: () => string | undefined;
}): JobQueue {
  const { events, logger } = opts;
  const maxAttempts = opts.maxAttempts ?? MAX_ATTEMPTS;
  const lockMs = opts.lockMs ?? 30_000;
  // Workers block on Redis and must wait for it however long it is away.
  const connection = new Redis(opts.url, { maxRetriesPerRequest: null });
  // Producers must not: a command while Redis is away fails at once instead of waiting for it.
  const producer = new Redis(opts.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  for (const [conn, what] of [
    [connection, 'queue redis error'],
    [producer, 'queue redis error (producer)'],
  ] as const)
    conn.on('error', (err) => logger.warn({ err: err.message }, what));
  const prefix = opts.prefix ?? 'clipscribe';
  const queues = new Map<JobLane, Queue>();
  const workers: Worker[] = [];
  const workerConnections: Redis[] = [];
  const running = new Map<string, AbortController>();
  const schedules = new Map<JobName, { payload: unknown; everyMs: number }>();
  let wasReady = false;
  /** Recoverable adds refused during an outage, in order (added again on 'ready'). */
  const held: { name: JobName; data: Data; o: AddOptionsInternal }[] = [];

  const queueOf = (name: JobName) => {
    const lane = JOB_SPECS[name].lane;
    let q = queues.get(lane);
    if (!q) {
      q = new Queue(LANE_QUEUES[lane], { connection: producer, prefix });
      q.on('error', (err) => logger.warn({ err: err.message, lane }, 'queue error'));
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
  /** A Redis command that gives up after ADD_TIMEOUT_MS, as QueueUnavailableError. */
  const bounded = async <T>(work: () => Promise<T>): Promise<T> => {
    // Connected once, not now (Redis away): fail now. BullMQ would wait for the connection and
    // add the job whenever it comes back, long after the caller gave up. (Before the first
    // connection, at start, the bound below applies.)
    if (wasReady && producer.status !== 'ready')
      throw new QueueUnavailableError(new Error(`Redis is ${producer.status}`));
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        work(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('Redis did not answer in time')), ADD_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      throw new QueueUnavailableError(err);
    } finally {
      clearTimeout(timer);
    }
  };
  const add = async (name: JobName, data: Data, o: AddOptionsInternal = {}) => {
    try {
      await bounded(() =>
        queueOf(name).add(name, data, {
          ...jobOptions(name),
          delay: o.delayMs,
          // A job id that is still in the queue makes BullMQ skip the add.
          jobId: o.dedupeId ?? (o.once && data.key !== undefined ? `${name}:${data.key}` : undefined),
        }),
      );
    } catch (err) {
      if (!isRecoverable(name)) throw err;
      // Its subject is in the database: added again as soon as Redis is back (below), and by the
      // recovery sweep should this process not live to see it.
      if (held.length < MAX_HELD_ADDS) held.push({ name, data, o });
      logger.warn(
        { err: (err as Error).message, job: name, key: data.key },
        'the queue is unavailable: the job is added once it is back',
      );
    }
  };
  /** The adds refused while Redis was away, added now that it is back (one refused again stays held). */
  const addHeld = async () => {
    const again = held.splice(0);
    for (const { name, data, o } of again) await add(name, data, o);
    if (again.length) logger.info({ jobs: again.length }, 'jobs refused while the queue was away: added');
  };
  const declare = (name: JobName, payload: unknown, everyMs: number) =>
    bounded(() =>
      queueOf(name).upsertJobScheduler(
        `every:${name}`,
        { every: everyMs },
        { name, data: { payload }, opts: jobOptions(name) },
      ),
    );
  // A Redis restarted without its data has forgotten the schedules: declare them again.
  producer.on('ready', () => {
    wasReady = true;
    void addHeld();
    for (const [name, s] of schedules) {
      declare(name, s.payload, s.everyMs).catch((err: Error) =>
        logger.warn({ err: err.message, job: name }, 'could not declare a recurring job again'),
      );
    }
  });

  /** Puts a job back without spending an attempt (a shutdown, a dependency away). */
  async function handBack(job: Job<Data>, token: string | undefined, delayMs: number, reason: string) {
    await job.moveToDelayed(Date.now() + delayMs, token);
    logger.info(
      { job: job.id, name: job.name, key: job.data.key, reason, retryInMs: delayMs },
      'job handed back to the queue',
    );
    throw new DelayedError();
  }

  return {
    kind: 'bullmq',
    add: (name, payload, o = {}) => add(name, { payload, key: o.key, reqId: opts.requestId?.() }, o),
    async every(name, payload, everyMs) {
      schedules.set(name, { payload, everyMs });
      // Redis away at start: declared when it comes (the 'ready' handler above).
      await declare(name, payload, everyMs).catch((err: Error) =>
        logger.warn(
          { err: err.message, job: name },
          'recurring job not declared yet: declared once Redis is there',
        ),
      );
    },
    async cancel(name, key) {
      // A waiting job finds its subject canceled and does nothing; a running one gets the signal.
      events.publish(cancelChannel(name, key), { type: 'cancel' });
    },
    async liveKeys(name) {
      const jobs = await bounded(() => queueOf(name).getJobs(LIVE_STATES, 0, -1));
      const keys = new Set<string>();
      for (const job of jobs) {
        if (job?.name !== name) continue;
        const data = job.data as Partial<Data> & { transcriptId?: string };
        const key = 'payload' in data ? data.key : data.transcriptId;
        if (key) keys.add(key);
      }
      return keys;
    },
    async depth() {
      const out = {} as Record<JobLane, { waiting: number; running: number }>;
      for (const lane of Object.keys(LANE_QUEUES) as JobLane[]) {
        const name = (Object.keys(JOB_SPECS) as JobName[]).find((n) => JOB_SPECS[n].lane === lane)!;
        const counts = await bounded(() =>
          queueOf(name).getJobCounts('waiting', 'delayed', 'prioritized', 'active'),
        );
        out[lane] = {
          waiting: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
          running: counts.active ?? 0,
        };
      }
      return out;
    },
    work(lane, handlers, concurrency) {
      const byName = handlers as unknown as Record<string, AnyHandler>;
      const workerConnection = connection.duplicate();
      const worker = new Worker<Data>(
        LANE_QUEUES[lane],
        async (job, token) => {
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
            await runJob(
              logger,
              { id: job.id!, name, key: key ?? null, lane, reqId: legacy ? undefined : job.data.reqId },
              () =>
                handler(payload, {
                  signal: controller.signal,
                  attempt: job.attemptsMade + 1,
                  maxAttempts,
                }),
            );
          } catch (err) {
            // Handed back at shutdown, or stopped by the database or the store being away: the
            // same job runs again (in whichever worker is there), its attempt unspent.
            if (err instanceof JobInterruptedError) return await handBack(job, token, 0, 'shutdown');
            if (isDependencyOutage(err)) {
              try {
                return await handBack(job, token, OUTAGE_RETRY_MS, 'dependency unavailable');
              } catch (moved) {
                if (moved instanceof DelayedError) throw moved;
                throw err; // Redis is away too: BullMQ's stalled-job check gives it to a worker later.
              }
            }
            if (err instanceof RetryableError) throw err;
            throw new UnrecoverableError(err instanceof Error ? err.message : String(err));
          } finally {
            unsubscribe();
            running.delete(job.id!);
          }
        },
        {
          connection: workerConnection,
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
      workerConnections.push(workerConnection);
    },
    async stop() {
      for (const controller of running.values()) controller.abort('shutdown');
      // Running jobs hand themselves back within moments. A worker whose blocking connection
      // went through a Redis restart can wait forever in close(): after a grace, cut it.
      await Promise.all(
        workers.map(async (w, i) => {
          if (await settlesWithin(w.close(), CLOSE_GRACE_MS)) return;
          logger.warn({ lane: w.name }, 'a queue worker did not close in time: disconnecting it');
          workerConnections[i]?.disconnect();
          await settlesWithin(w.close(), CLOSE_GRACE_MS);
        }),
      );
      await Promise.all([...queues.values()].map((q) => settlesWithin(q.close(), CLOSE_GRACE_MS)));
      await connection.quit().catch(() => undefined);
      await producer.quit().catch(() => undefined);
    },
  };
}
