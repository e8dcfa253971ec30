import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client';
import { jobs, transcripts, users } from '../../db/schema';
import { createLogger } from '../../logger';
import { createDbQueue } from './db-queue';
import { createLocalEvents } from './events';
import { JobInterruptedError, RetryableError, type JobContext, type JobQueue } from './queue';

let database: Database;
let userId: string;
const logger = createLogger('silent');

beforeAll(async () => {
  database = await openDatabase({});
  const [u] = await database.db.insert(users).values({ email: 'q@example.test' }).returning();
  userId = u!.id;
});
afterAll(async () => database.close());

async function transcript() {
  const [t] = await database.db
    .insert(transcripts)
    .values({ userId, name: 't', source: 'upload', status: 'queued' })
    .returning();
  return t!.id;
}

const jobOf = async (transcriptId: string) =>
  (await database.db.select().from(jobs).where(eq(jobs.transcriptId, transcriptId)))[0]!;

async function until(check: () => Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function queue(overrides: Partial<Parameters<typeof createDbQueue>[0]> = {}) {
  return createDbQueue({
    db: database.db,
    events: createLocalEvents(),
    logger,
    exclusive: false,
    pollMs: 20,
    retryDelayMs: () => 10,
    ...overrides,
  });
}

describe('the embedded job queue', () => {
  let q: JobQueue;
  it('runs each job once and marks it done', async () => {
    const seen: string[] = [];
    q = queue();
    q.start(async (id) => void seen.push(id), 1);
    const a = await transcript();
    const b = await transcript();
    await q.enqueue(a);
    await q.enqueue(b);
    await until(async () => (await jobOf(b)).status === 'done');
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual([a, b]);
    expect(await jobOf(a)).toMatchObject({ status: 'done', attempts: 1, lockedBy: null });
    await q.stop();
  });

  it('retries transient failures with backoff, then gives up', async () => {
    const contexts: JobContext[] = [];
    q = queue({ maxAttempts: 3 });
    q.start(async (_id, ctx) => {
      contexts.push(ctx);
      throw new RetryableError('engine crashed');
    }, 1);
    const id = await transcript();
    await q.enqueue(id);
    await until(async () => (await jobOf(id)).status === 'failed');
    expect(contexts.map((c) => c.attempt)).toEqual([1, 2, 3]);
    expect(await jobOf(id)).toMatchObject({ attempts: 3, lastError: 'engine crashed' });
    await q.stop();
  });

  it('does not retry other failures', async () => {
    let runs = 0;
    q = queue();
    q.start(async () => {
      runs++;
      throw new Error('bug');
    }, 1);
    const id = await transcript();
    await q.enqueue(id);
    await until(async () => (await jobOf(id)).status === 'failed');
    expect(runs).toBe(1);
    await q.stop();
  });

  it('takes up a job whose lease expired (its process died)', async () => {
    const id = await transcript();
    await database.db.insert(jobs).values({
      transcriptId: id,
      status: 'running',
      attempts: 1,
      lockedBy: 'dead-process',
      lockedUntil: new Date(Date.now() - 1000),
    });
    const live = await transcript();
    await database.db.insert(jobs).values({
      transcriptId: live,
      status: 'running',
      attempts: 1,
      lockedBy: 'live-process',
      lockedUntil: new Date(Date.now() + 60_000),
    });
    const seen: string[] = [];
    q = queue();
    q.start(async (t) => void seen.push(t), 1);
    await until(async () => (await jobOf(id)).status === 'done');
    expect(seen).toEqual([id]);
    expect((await jobOf(id)).attempts).toBe(2);
    expect((await jobOf(live)).status).toBe('running');
    await q.stop();
    await database.db.delete(jobs).where(eq(jobs.transcriptId, live));
  });

  it('with an exclusive database, takes up every running job at start', async () => {
    const id = await transcript();
    await database.db.insert(jobs).values({
      transcriptId: id,
      status: 'running',
      attempts: 1,
      lockedBy: 'killed',
      lockedUntil: new Date(Date.now() + 60_000),
    });
    const seen: string[] = [];
    q = queue({ exclusive: true });
    q.start(async (t) => void seen.push(t), 1);
    await until(async () => (await jobOf(id)).status === 'done');
    expect(seen).toEqual([id]);
    await q.stop();
  });

  it('cancels a running job through its signal', async () => {
    let reason: unknown = null;
    q = queue();
    q.start(
      (_id, ctx) =>
        new Promise<void>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            reason = ctx.signal.reason;
            resolve();
          });
        }),
      1,
    );
    const id = await transcript();
    await q.enqueue(id);
    await until(async () => (await jobOf(id)).status === 'running');
    await q.cancel(id);
    await until(async () => (await jobOf(id)).status === 'canceled');
    expect(reason).toBe('cancel');
    await q.stop();
  });

  it('a job that finished as shutdown began stays done', async () => {
    q = queue();
    q.start(
      (_id, ctx) =>
        new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => setTimeout(resolve, 20))),
      1,
    );
    const id = await transcript();
    await q.enqueue(id);
    await until(async () => (await jobOf(id)).status === 'running');
    await q.stop();
    expect((await jobOf(id)).status).toBe('done');
  });

  it('hands running jobs back at shutdown without counting an attempt', async () => {
    q = queue();
    q.start(
      (_id, ctx) =>
        new Promise<void>((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => reject(new JobInterruptedError())),
        ),
      1,
    );
    const id = await transcript();
    await q.enqueue(id);
    await until(async () => (await jobOf(id)).status === 'running');
    await q.stop();
    expect(await jobOf(id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
    await database.db.delete(jobs).where(eq(jobs.transcriptId, id));
  });
});
