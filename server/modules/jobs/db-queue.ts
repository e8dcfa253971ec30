import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { jobs } from '../../db/schema';
import type { Logger } from '../../logger';
import type { TranscriptEvents } from './events';
import {
  JobInterruptedError,
  MAX_ATTEMPTS,
  RetryableError,
  retryDelayMs,
  type JobHandler,
  type JobQueue,
} from './queue';

export interface DbQueueOptions {
  db: Db;
  events: TranscriptEvents;
  logger: Logger;
  /**
   * PGlite belongs to one process, so at start every 'running' row is an orphan of a killed
   * run and is taken up at once; with PostgreSQL other processes may hold live leases.
   */
  exclusive: boolean;
  leaseMs?: number;
  pollMs?: number;
  maxAttempts?: number;
  /** Overridable so tests need not wait for the real backoff. */
  retryDelayMs?: (attempt: number) => number;
}

interface Claimed {
  id: string;
  transcript_id: string;
  attempts: number;
}

/**
 * The embedded queue: jobs are rows. A worker claims one with a lease it renews while the job
 * runs; a process killed mid-job stops renewing, and the job is claimed again (PGlite: at the
 * next start). Completion is written only by the lease holder, so a job finishes once.
 */
export function createDbQueue(opts: DbQueueOptions): JobQueue {
  const { db, events, logger } = opts;
  const leaseMs = opts.leaseMs ?? 60_000;
  const pollMs = opts.pollMs ?? 1_000;
  const maxAttempts = opts.maxAttempts ?? MAX_ATTEMPTS;
  const delay = opts.retryDelayMs ?? retryDelayMs;
  const workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let handler: JobHandler | null = null;
  let slots = 1;
  let timer: NodeJS.Timeout | null = null;
  let stopping = false;
  let pumping = false;

  async function claim(): Promise<Claimed | null> {
    const result = await db.execute<Record<string, unknown>>(sql`
      UPDATE jobs SET status = 'running', locked_by = ${workerId},
        locked_until = now() + ${`${leaseMs} milliseconds`}::interval, attempts = attempts + 1
      WHERE id = (
        SELECT id FROM jobs
        WHERE (status = 'queued' AND run_after <= now())
           OR (status = 'running' AND locked_until < now())
        ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, transcript_id, attempts`);
    const rows = (result as unknown as { rows: Claimed[] }).rows;
    return rows[0] ?? null;
  }

  const mine = (id: string) => and(eq(jobs.id, id), eq(jobs.lockedBy, workerId));

  async function settle(job: Claimed, error: unknown, aborted: 'cancel' | 'shutdown' | null) {
    if (error instanceof JobInterruptedError) {
      // Not the job's fault: hand it back untouched for the next run.
      await db
        .update(jobs)
        .set({ status: 'queued', lockedBy: null, lockedUntil: null, attempts: sql`${jobs.attempts} - 1` })
        .where(mine(job.id));
      return;
    }
    if (error instanceof RetryableError && job.attempts < maxAttempts) {
      await db
        .update(jobs)
        .set({
          status: 'queued',
          lockedBy: null,
          lockedUntil: null,
          lastError: error.message,
          runAfter: new Date(Date.now() + delay(job.attempts)),
        })
        .where(mine(job.id));
      return;
    }
    // A handler that returned finished its work, even if a shutdown signal came just after.
    const status = error ? 'failed' : aborted === 'cancel' ? 'canceled' : 'done';
    await db
      .update(jobs)
      .set({
        status,
        lockedBy: null,
        lockedUntil: null,
        finishedAt: new Date(),
        lastError: error instanceof Error ? error.message : null,
      })
      .where(mine(job.id));
  }

  async function run(job: Claimed, controller: AbortController) {
    const unsubscribe = events.subscribe(job.transcript_id, (e) => {
      if (e.type === 'cancel') controller.abort('cancel');
    });
    const heartbeat = setInterval(() => {
      db.update(jobs)
        .set({ lockedUntil: new Date(Date.now() + leaseMs) })
        .where(mine(job.id))
        .catch((err: Error) => logger.warn({ err: err.message }, 'lease renewal failed'));
    }, leaseMs / 3);
    let error: unknown = null;
    try {
      await handler!(job.transcript_id, {
        signal: controller.signal,
        attempt: job.attempts,
        maxAttempts,
      });
    } catch (err) {
      error = err;
      if (!(err instanceof RetryableError || err instanceof JobInterruptedError)) {
        logger.error({ err, job: job.id }, 'job failed');
      }
    } finally {
      clearInterval(heartbeat);
      unsubscribe();
    }
    const reason = controller.signal.aborted ? (controller.signal.reason as 'cancel' | 'shutdown') : null;
    await settle(job, error, reason).catch((err: Error) =>
      logger.error({ err: err.message, job: job.id }, 'could not settle job'),
    );
  }

  async function pump() {
    if (pumping || stopping || !handler) return;
    pumping = true;
    try {
      while (!stopping && running.size < slots) {
        const job = await claim();
        if (!job) break;
        const controller = new AbortController();
        const done = run(job, controller).finally(() => {
          running.delete(job.id);
          void pump();
        });
        running.set(job.id, { controller, done });
      }
    } catch (err) {
      logger.error({ err }, 'job claim failed');
    } finally {
      pumping = false;
    }
  }

  function schedule() {
    if (stopping) return;
    timer = setTimeout(() => {
      void pump().finally(schedule);
    }, pollMs);
    timer.unref();
  }

  return {
    kind: 'db',
    async enqueue(transcriptId) {
      await db.insert(jobs).values({ transcriptId, status: 'queued' });
      void pump();
    },
    async cancel(transcriptId) {
      await db
        .update(jobs)
        .set({ status: 'canceled', finishedAt: new Date() })
        .where(and(eq(jobs.transcriptId, transcriptId), eq(jobs.status, 'queued')));
      events.publish(transcriptId, { type: 'cancel' });
    },
    start(h, concurrency) {
      handler = h;
      slots = Math.max(1, concurrency);
      const recover = opts.exclusive
        ? db
            .update(jobs)
            .set({ status: 'queued', lockedBy: null, lockedUntil: null })
            .where(inArray(jobs.status, ['running']))
        : Promise.resolve();
      void Promise.resolve(recover)
        .then(() => pump())
        .catch((err: Error) => logger.error({ err: err.message }, 'job recovery failed'))
        .finally(schedule);
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      const pending = [...running.values()];
      for (const entry of pending) entry.controller.abort('shutdown');
      await Promise.all(pending.map((e) => e.done));
    },
  };
}
