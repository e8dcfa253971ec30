import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { jobs } from '../../db/schema';
import type { Logger } from '../../logger';
import { isDependencyOutage } from '../../outage';
import { outageLog } from '../../outage-log';
import type { TranscriptEvents } from './events';
import { JOB_SPECS, isRecoverable, jobsOfLane, keepsDone, type JobLane, type JobName } from './job-map';
import { runJob } from './run-job';
import {
  JobInterruptedError,
  MAX_ATTEMPTS,
  RetryableError,
  cancelChannel,
  retryDelayMs,
  type JobContext,
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
  /** The current request's id, stored with each job added (server/logger.ts). */
  requestId?: () => string | undefined;
}

interface Claimed {
  id: string;
  name: JobName;
  payload: unknown;
  key: string | null;
  once: boolean;
  repeat_ms: number | null;
  attempts: number;
  request_id: string | null;
}

type AnyHandler = (payload: unknown, ctx: JobContext) => Promise<void>;

/** A job stopped by a dependency's outage runs again this much later. */
const OUTAGE_RETRY_MS = 15_000;

/**
 * The embedded queue: jobs are rows. A worker claims one with a lease it renews while the job
 * runs; a process killed mid-job stops renewing, and the job is claimed again (PGlite: at the
 * next start). Completion is written only by the lease holder, so a job finishes once. Each
 * lane claims only its own job names, with its own number of slots.
 */
export function createDbQueue(opts: DbQueueOptions): JobQueue {
  const { db, events, logger } = opts;
  const leaseMs = opts.leaseMs ?? 60_000;
  const pollMs = opts.pollMs ?? 1_000;
  const maxAttempts = opts.maxAttempts ?? MAX_ATTEMPTS;
  const delay = opts.retryDelayMs ?? retryDelayMs;
  const workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const lanes = new Map<JobLane, ReturnType<typeof createLane>>();
  let recovered: Promise<unknown> | null = null;
  let stopping = false;

  const mine = (id: string) => and(eq(jobs.id, id), eq(jobs.lockedBy, workerId));

  async function insert(
    name: JobName,
    payload: unknown,
    o: { key?: string; once?: boolean; delayMs?: number; repeatMs?: number },
    via: DbOrTx = db,
  ) {
    const transcriptId = name === 'transcribe' ? (payload as { transcriptId: string }).transcriptId : null;
    const added = via
      .insert(jobs)
      .values({
        name,
        payload: payload as Record<string, unknown>,
        key: o.key ?? null,
        once: !!o.once && o.key !== undefined,
        repeatMs: o.repeatMs ?? null,
        transcriptId,
        status: 'queued',
        runAfter: new Date(Date.now() + (o.delayMs ?? 0)),
        requestId: opts.requestId?.() ?? null,
      })
      .onConflictDoNothing();
    try {
      await added;
    } catch (err) {
      // PostgreSQL away: a transcript's job is added by the recovery sweep (job-map.ts).
      if (via !== db || !isRecoverable(name) || !isDependencyOutage(err)) throw err;
      logger.warn(
        { err: (err as Error).message, job: name, key: o.key },
        'job not added now: the recovery sweep adds it',
      );
      return;
    }
    lanes.get(JOB_SPECS[name].lane)?.pump();
  }

  async function settle(job: Claimed, error: unknown, aborted: 'cancel' | 'shutdown' | null) {
    const outage = !(error instanceof JobInterruptedError) && isDependencyOutage(error);
    if (error instanceof JobInterruptedError || outage) {
      // Not the job's fault (a shutdown, the database or the store away for a moment): hand it
      // back without spending an attempt, for the next run.
      await db
        .update(jobs)
        .set({
          status: 'queued',
          lockedBy: null,
          lockedUntil: null,
          attempts: sql`${jobs.attempts} - 1`,
          runAfter: new Date(Date.now() + (outage ? OUTAGE_RETRY_MS : 0)),
        })
        .where(mine(job.id));
      logger.info(
        { job: job.id, name: job.name, key: job.key, reason: outage ? 'dependency unavailable' : 'shutdown' },
        'job handed back to the queue',
      );
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
    if (status === 'done' && !keepsDone(job.name)) {
      await db.delete(jobs).where(mine(job.id));
    } else {
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
    if (job.repeat_ms !== null) {
      await insert(job.name, job.payload, {
        key: job.key ?? undefined,
        once: job.once,
        delayMs: job.repeat_ms,
        repeatMs: job.repeat_ms,
      });
    }
  }

  function createLane(lane: JobLane, names: JobName[], handlers: Record<string, AnyHandler>, slots: number) {
    const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
    let timer: NodeJS.Timeout | null = null;
    let pumping = false;
    const claims = outageLog(logger, `claiming ${names.join(', ')} jobs`);
    const renewals = outageLog(logger, 'renewing a job lease');

    async function claim(): Promise<Claimed | null> {
      const result = await db.execute<Record<string, unknown>>(sql`
        UPDATE jobs SET status = 'running', locked_by = ${workerId},
          locked_until = now() + ${`${leaseMs} milliseconds`}::interval, attempts = attempts + 1
        WHERE id = (
          SELECT id FROM jobs
          WHERE name IN (${sql.join(
            names.map((n) => sql`${n}`),
            sql`, `,
          )})
            AND ((status = 'queued' AND run_after <= now())
              OR (status = 'running' AND locked_until < now()))
          ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, name, payload, key, once, repeat_ms, attempts, request_id`);
      const rows = (result as unknown as { rows: Claimed[] }).rows;
      return rows[0] ?? null;
    }

    async function run(job: Claimed, controller: AbortController) {
      const unsubscribe = job.key
        ? events.subscribe(cancelChannel(job.name, job.key), (e) => {
            if (e.type === 'cancel') controller.abort('cancel');
          })
        : () => undefined;
      const heartbeat = setInterval(() => {
        db.update(jobs)
          .set({ lockedUntil: new Date(Date.now() + leaseMs) })
          .where(mine(job.id))
          .then(() => renewals.ok())
          .catch((err: unknown) => renewals.failed(err, { job: job.id }));
      }, leaseMs / 3);
      let error: unknown = null;
      try {
        await runJob(
          logger,
          { id: job.id, name: job.name, key: job.key, lane, reqId: job.request_id ?? undefined },
          () =>
            handlers[job.name]!(job.payload, {
              signal: controller.signal,
              attempt: job.attempts,
              maxAttempts,
            }),
        );
      } catch (err) {
        error = err;
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
      if (pumping || stopping) return;
      pumping = true;
      try {
        await recovered;
        while (!stopping && running.size < slots) {
          const job = await claim();
          claims.ok();
          if (!job) break;
          const controller = new AbortController();
          const done = run(job, controller).finally(() => {
            running.delete(job.id);
            void pump();
          });
          running.set(job.id, { controller, done });
        }
      } catch (err) {
        claims.failed(err);
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
      pump: () => void pump(),
      start: () => void pump().finally(schedule),
      async stop() {
        if (timer) clearTimeout(timer);
        const pending = [...running.values()];
        for (const entry of pending) entry.controller.abort('shutdown');
        await Promise.all(pending.map((e) => e.done));
      },
    };
  }

  return {
    kind: 'db',
    add: (name, payload, o = {}) => insert(name, payload, o),
    addInTransaction: (tx, name, payload, o = {}) => insert(name, payload, o, tx),
    every: (name, payload, everyMs) =>
      insert(name, payload, { key: 'every', once: true, delayMs: everyMs, repeatMs: everyMs }),
    async cancel(name, key) {
      await db
        .update(jobs)
        .set({ status: 'canceled', finishedAt: new Date() })
        .where(and(eq(jobs.name, name), eq(jobs.key, key), eq(jobs.status, 'queued')));
      events.publish(cancelChannel(name, key), { type: 'cancel' });
    },
    async liveKeys(name) {
      const rows = await db
        .select({ key: jobs.key })
        .from(jobs)
        .where(and(eq(jobs.name, name), inArray(jobs.status, ['queued', 'running'])));
      return new Set(rows.map((r) => r.key).filter((k): k is string => k !== null));
    },
    async depth() {
      const rows = await db
        .select({ name: jobs.name, status: jobs.status, n: sql<number>`count(*)::int` })
        .from(jobs)
        .where(inArray(jobs.status, ['queued', 'running']))
        .groupBy(jobs.name, jobs.status);
      const out: Record<JobLane, { waiting: number; running: number }> = {
        transcription: { waiting: 0, running: 0 },
        downloads: { waiting: 0, running: 0 },
        background: { waiting: 0, running: 0 },
        render: { waiting: 0, running: 0 },
        language: { waiting: 0, running: 0 },
        ask: { waiting: 0, running: 0 },
      };
      for (const r of rows) {
        const spec = JOB_SPECS[r.name as JobName];
        if (!spec) continue;
        out[spec.lane][r.status === 'running' ? 'running' : 'waiting'] += Number(r.n);
      }
      return out;
    },
    work(lane, handlers, concurrency) {
      if (lanes.has(lane)) throw new Error(`lane ${lane} is already worked in this process`);
      // PGlite: running rows at start are orphans of a killed run (see `exclusive`).
      recovered ??= opts.exclusive
        ? db
            .update(jobs)
            .set({ status: 'queued', lockedBy: null, lockedUntil: null })
            .where(inArray(jobs.status, ['running']))
            .catch((err: Error) => logger.error({ err: err.message }, 'job recovery failed'))
        : Promise.resolve();
      const consumer = createLane(
        lane,
        jobsOfLane(lane),
        handlers as unknown as Record<string, AnyHandler>,
        Math.max(1, concurrency),
      );
      lanes.set(lane, consumer);
      consumer.start();
    },
    async stop() {
      stopping = true;
      await Promise.all([...lanes.values()].map((l) => l.stop()));
    },
  };
}
