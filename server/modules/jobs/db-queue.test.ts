import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client';
import { jobs, users } from '../../db/schema';
import { createLogger } from '../../logger';
import { waitFor } from '../../test/wait';
import { newTranscript } from '../../test/factories';
import { createDbQueue } from './db-queue';
import { createLocalEvents } from './events';
import { JobInterruptedError, RetryableError, type JobContext, type JobQueue } from './queue';
import { cancelTranscription, queueTranscription } from '../transcription/transcribe-jobs';

let database: Database;
let userId: string;
const logger = createLogger('silent');

beforeAll(async () => {
  database = await openDatabase({});
  const [u] = await database.db.insert(users).values({ email: 'q@example.test' }).returning();
  userId = u!.id;
});
afterAll(async () => database.close());

const transcript = async () => (await newTranscript(database.db, userId)).id;

const jobOf = async (transcriptId: string) =>
  (await database.db.select().from(jobs).where(eq(jobs.transcriptId, transcriptId)))[0]!;

/** Consumes transcription jobs with `handler`, given the transcript id. */
function transcribeWith(q: JobQueue, handler: (transcriptId: string, ctx: JobContext) => Promise<void>) {
  q.work(
    'transcription',
    {
      transcribe: ({ transcriptId }, ctx) => handler(transcriptId, ctx),
      'identify-speakers': async () => undefined,
    },
    1,
  );
}

/** A job row as a process of another run left it. */
const leftJob = (transcriptId: string) => ({
  name: 'transcribe',
  payload: { transcriptId },
  key: transcriptId,
  transcriptId,
});

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
    transcribeWith(q, async (id) => void seen.push(id));
    const a = await transcript();
    const b = await transcript();
    await queueTranscription(q, a);
    await queueTranscription(q, b);
    await waitFor(async () => (await jobOf(b)).status === 'done');
    await waitFor(async () => (await jobOf(a)).lockedBy === null);
    expect(seen).toEqual([a, b]);
    expect(await jobOf(a)).toMatchObject({ status: 'done', attempts: 1, lockedBy: null });
    await q.stop();
  });

  it('retries transient failures with backoff, then gives up', async () => {
    const contexts: JobContext[] = [];
    q = queue({ maxAttempts: 3 });
    transcribeWith(q, async (_id, ctx) => {
      contexts.push(ctx);
      throw new RetryableError('engine crashed');
    });
    const id = await transcript();
    await queueTranscription(q, id);
    await waitFor(async () => (await jobOf(id)).status === 'failed');
    expect(contexts.map((c) => c.attempt)).toEqual([1, 2, 3]);
    expect(await jobOf(id)).toMatchObject({ attempts: 3, lastError: 'engine crashed' });
    await q.stop();
  });

  it('does not retry other failures', async () => {
    let runs = 0;
    q = queue();
    transcribeWith(q, async () => {
      runs++;
      throw new Error('bug');
    });
    const id = await transcript();
    await queueTranscription(q, id);
    await waitFor(async () => (await jobOf(id)).status === 'failed');
    expect(runs).toBe(1);
    await q.stop();
  });

  it('takes up a job whose lease expired (its process died)', async () => {
    const id = await transcript();
    await database.db.insert(jobs).values({
      ...leftJob(id),
      status: 'running',
      attempts: 1,
      lockedBy: 'dead-process',
      lockedUntil: new Date(Date.now() - 1000),
    });
    const live = await transcript();
    await database.db.insert(jobs).values({
      ...leftJob(live),
      status: 'running',
      attempts: 1,
      lockedBy: 'live-process',
      lockedUntil: new Date(Date.now() + 60_000),
    });
    const seen: string[] = [];
    q = queue();
    transcribeWith(q, async (t) => void seen.push(t));
    await waitFor(async () => (await jobOf(id)).status === 'done');
    expect(seen).toEqual([id]);
    expect((await jobOf(id)).attempts).toBe(2);
    expect((await jobOf(live)).status).toBe('running');
    await q.stop();
    await database.db.delete(jobs).where(eq(jobs.transcriptId, live));
  });

  it('with an exclusive database, takes up every running job at start', async () => {
    const id = await transcript();
    await database.db.insert(jobs).values({
      ...leftJob(id),
      status: 'running',
      attempts: 1,
      lockedBy: 'killed',
      lockedUntil: new Date(Date.now() + 60_000),
    });
    const seen: string[] = [];
    q = queue({ exclusive: true });
    transcribeWith(q, async (t) => void seen.push(t));
    await waitFor(async () => (await jobOf(id)).status === 'done');
    expect(seen).toEqual([id]);
    await q.stop();
  });

  it('cancels a running job through its signal', async () => {
    let reason: unknown = null;
    q = queue();
    transcribeWith(
      q,
      (_id, ctx) =>
        new Promise<void>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            reason = ctx.signal.reason;
            resolve();
          });
        }),
    );
    const id = await transcript();
    await queueTranscription(q, id);
    await waitFor(async () => (await jobOf(id)).status === 'running');
    await cancelTranscription(q, id);
    await waitFor(async () => (await jobOf(id)).status === 'canceled');
    expect(reason).toBe('cancel');
    await q.stop();
  });

  it('a job that finished as shutdown began stays done', async () => {
    q = queue();
    transcribeWith(
      q,
      (_id, ctx) =>
        new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => setTimeout(resolve, 20))),
    );
    const id = await transcript();
    await queueTranscription(q, id);
    await waitFor(async () => (await jobOf(id)).status === 'running');
    await q.stop();
    expect((await jobOf(id)).status).toBe('done');
  });

  it('hands running jobs back at shutdown without counting an attempt', async () => {
    q = queue();
    transcribeWith(
      q,
      (_id, ctx) =>
        new Promise<void>((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => reject(new JobInterruptedError())),
        ),
    );
    const id = await transcript();
    await queueTranscription(q, id);
    await waitFor(async () => (await jobOf(id)).status === 'running');
    await q.stop();
    expect(await jobOf(id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
    await database.db.delete(jobs).where(eq(jobs.transcriptId, id));
  });
});

describe('named jobs', () => {
  const rowsOf = (name: string) => database.db.select().from(jobs).where(eq(jobs.name, name));

  it('runs each lane with its own slots, so a long transcription does not hold up a mail', async () => {
    const q = queue();
    let release = () => {};
    transcribeWith(q, () => new Promise<void>((r) => (release = r)));
    const sent: string[] = [];
    q.work(
      'background',
      {
        'send-mail': async (m) => void sent.push(m.to),
        'account-mail': async () => {},
        'sweep-retention': async () => {},
        'deliver-webhook': async () => {},
        'recover-jobs': async () => {},
      },
      1,
    );
    const id = await transcript();
    await queueTranscription(q, id);
    await waitFor(async () => (await jobOf(id)).status === 'running');
    await q.add('send-mail', { to: 'a@example.test', subject: 's', text: 't', html: '<p>t</p>' });
    await waitFor(async () => sent.length === 1);
    // Done rows of jobs other than transcriptions go (a mail's payload holds a sign-in link).
    await waitFor(async () => (await rowsOf('send-mail')).length === 0);
    release();
    await waitFor(async () => (await jobOf(id)).status === 'done');
    await q.stop();
  });

  it('starts a question queued after a long language job (and one more waiting) while that job runs', async () => {
    const q = queue();
    const order: string[] = [];
    let release = () => {};
    q.work(
      'language',
      {
        'generate-insight': ({ insightId }) =>
          new Promise<void>((r) => {
            order.push(`start ${insightId}`);
            release = () => (order.push(`end ${insightId}`), r());
          }),
        'translate-track': async ({ trackId }) => void order.push(`start ${trackId}`),
        'retranslate-segment': async ({ trackId }) => void order.push(`start ${trackId}`),
      },
      1,
    );
    q.work('ask', { 'answer-question': async ({ messageId }) => void order.push(`start ${messageId}`) }, 1);
    await q.add('generate-insight', { insightId: 'summary' });
    await waitFor(async () => order.includes('start summary'));
    await q.add('translate-track', { trackId: 'translation' });
    await q.add('answer-question', { messageId: 'question' });
    await waitFor(async () => order.includes('start question'));
    expect(order).toEqual(['start summary', 'start question']);
    release();
    await waitFor(async () => order.includes('start translation'));
    expect(order).toEqual(['start summary', 'start question', 'end summary', 'start translation']);
    await q.stop();
  });

  it('keeps one live job per name and key when asked to', async () => {
    const q = queue();
    await q.add('download-model', { model: 'tiny' }, { key: 'tiny', once: true });
    await q.add('download-model', { model: 'tiny' }, { key: 'tiny', once: true });
    await q.add('download-model', { model: 'base' }, { key: 'base', once: true });
    expect((await rowsOf('download-model')).map((r) => r.key).sort()).toEqual(['base', 'tiny']);
    await database.db.delete(jobs).where(eq(jobs.name, 'download-model'));
  });

  it('declares a schedule once however often it is declared, and queues the next run after each', async () => {
    const first = queue();
    const second = queue();
    await first.every('sweep-retention', {}, 60_000);
    await second.every('sweep-retention', {}, 60_000);
    const [row, ...more] = await rowsOf('sweep-retention');
    expect(more).toHaveLength(0);
    expect(row!.runAfter.getTime()).toBeGreaterThan(Date.now() + 50_000);

    // Make it due: it runs, and the next run is queued one interval later.
    await database.db.update(jobs).set({ runAfter: new Date() }).where(eq(jobs.id, row!.id));
    let runs = 0;
    first.work(
      'background',
      {
        'send-mail': async () => {},
        'account-mail': async () => {},
        'sweep-retention': async () => void runs++,
        'deliver-webhook': async () => {},
        'recover-jobs': async () => {},
      },
      1,
    );
    await waitFor(async () => runs === 1 && (await rowsOf('sweep-retention')).some((r) => r.id !== row!.id));
    const next = await rowsOf('sweep-retention');
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ status: 'queued' });
    expect(next[0]!.runAfter.getTime()).toBeGreaterThan(Date.now() + 50_000);
    await first.stop();
    await second.stop();
    await database.db.delete(jobs).where(eq(jobs.name, 'sweep-retention'));
  });
});
