import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../server/test/harness';
import { makeMedia } from '../../server/test/media';
import { startRedis, type PrivateRedis } from '../../server/test/private-services';
import { tusUpload } from '../../server/test/tus';
import { signedInUser } from '../../server/test/users';
import { waitFor } from '../../server/test/wait';
import { transcripts, webhookDeliveries, webhookEndpoints } from '../../server/db/schema';
import { emitWebhookEvent } from '../../server/modules/webhooks/deliver';
import { recoverTranscriptJobs } from '../../server/modules/transcription/recover-jobs';

// Redis restarted under a running web process, with its data lost (no append-only file: the
// worst case; the README asks for AOF). A private redis-server, so the shared one is untouched.
const PREFIX = `cs-restart-${process.pid}`;
let redis: PrivateRedis;
let h: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  redis = await startRedis(path.resolve(`tmp/redis-restart-${process.pid}`), { aof: false });
  h = await testApp(
    {},
    { DATA_DIR: path.resolve('tmp/test-data-redis-restart'), REDIS_URL: redis.url, QUEUE_PREFIX: PREFIX },
  );
});
afterAll(async () => {
  await h?.close();
  await redis?.close();
});

async function schedulers(): Promise<string[]> {
  const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  try {
    return await client.zrange(`${PREFIX}:clipscribe-background:repeat`, '0', '-1');
  } finally {
    client.disconnect();
  }
}

describe('Redis restarted under a web process', () => {
  it('keeps answering, creates transcripts without hanging, and gets its schedules and jobs back', async () => {
    await waitFor(async () => (await schedulers()).some((k) => k.includes('recover-jobs')), {
      ms: 10_000,
      what: 'the recurring jobs to be declared',
    });
    const u = await signedInUser(h.db);
    const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
    const file = makeMedia(path.resolve('tmp/test-media'), 'wav', 2);
    const { id: uploadId } = await tusUpload(fetcher, u.headers, readFileSync(file), 'talk.wav');

    await redis.kill();
    // Logins count attempts in Redis: each process counts alone meanwhile, no 500.
    const login = await h.app.request('/common-api/v1/login', {
      method: 'POST',
      headers: { origin: 'http://localhost', 'content-type': 'application/json' },
      body: JSON.stringify({ email: u.user.email, password: 'not the password' }),
    });
    expect(login.status).toBeLessThan(500);
    // Starting a transcription does not wait for Redis: the transcript is queued, its job added
    // once Redis is back.
    const started = Date.now();
    const created = await h.api('POST', '/transcripts', u.headers, { upload_id: uploadId });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(created.json.code).toBe(200);
    expect(created.json.data.status).toBe('queued');
    // What cannot wait (a mail queued by sign-up) is refused with a status to retry on.
    const signup = await h.app.request('/common-api/v1/signup', {
      method: 'POST',
      headers: { origin: 'http://localhost', 'content-type': 'application/json' },
      body: JSON.stringify({ email: `new-${Date.now()}@example.com`, password: 'a long secret 42' }),
    });
    expect(signup.status).toBe(503);
    expect(signup.headers.get('retry-after')).toBe('5');
    expect(((await signup.json()) as { message_key: string }).message_key).toBe('errors.api.unavailable');

    // Back, empty: the schedules are declared again, and the job refused meanwhile is added at
    // once (the recovery sweep, which waits for a quiet minute, then finds nothing to do).
    await redis.start();
    await waitFor(async () => (await schedulers()).some((k) => k.includes('recover-jobs')), {
      ms: 15_000,
      what: 'the recurring jobs to be declared again',
    });
    const id = created.json.data.id as string;
    const queue = h.deps.services.transcription.queue;
    await waitFor(async () => (await queue.liveKeys('transcribe')).has(id) || undefined, {
      ms: 10_000,
      what: 'the refused job to be added',
    });
    await h.db
      .update(transcripts)
      .set({ updatedAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(transcripts.id, id));
    expect(await recoverTranscriptJobs(h.deps.services.transcription)).toBe(0);
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    const waiting = await client.lrange(`${PREFIX}:clipscribe-transcriptions:wait`, '0', '-1');
    client.disconnect();
    expect(waiting).toHaveLength(1);
  }, 60_000);

  it('adds a webhook delivery refused during the outage as soon as Redis is back', async () => {
    const u = await signedInUser(h.db);
    const [endpoint] = await h.db
      .insert(webhookEndpoints)
      .values({
        userId: u.user.id,
        url: 'http://127.0.0.1:1/hook',
        secret: 'whsec_x',
        events: ['transcript.completed'],
      })
      .returning();
    await redis.kill();
    const [id] = await emitWebhookEvent(h.deps.services.webhooks, endpoint!.workspaceId, 'transcript.completed', {
      id: 'lost-in-the-outage',
    });
    await redis.start();
    // Its first attempt within seconds of Redis coming back, not after the sweep's quiet minute.
    const attempts = await waitFor(
      async () => {
        const [d] = await h.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id!));
        return d!.attempts.length > 0 ? d!.attempts : undefined;
      },
      { ms: 15_000, what: 'the delivery to be attempted' },
    );
    expect(attempts).toHaveLength(1);
  }, 60_000);
});
