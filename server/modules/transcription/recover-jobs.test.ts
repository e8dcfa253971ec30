import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, transcripts, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { testApp } from '../../test/harness';
import { newTranscript } from '../../test/factories';
import { makeMedia } from '../../test/media';
import { tusUpload } from '../../test/tus';
import { sessionActor, signedInUser } from '../../test/users';
import type { JobQueue } from '../jobs/queue';
import { recoverDeliveries } from '../webhooks/deliver';
import { recoverTranscriptJobs } from './recover-jobs';
import { createFromUpload } from './create-from-upload';
import { uploadRunSchema } from '../../../common/run-options';

// The background lane runs here, the transcription lane does not: jobs stay queued to be looked at.
let h: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  h = await testApp({}, { DATA_DIR: path.resolve('tmp/test-data-recover') });
});
afterAll(async () => h?.close());

const readdirSafe = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);
const longAgo = () => new Date(Date.now() - 10 * 60_000);
const jobsOf = (id: string) => h.db.select().from(jobs).where(eq(jobs.transcriptId, id));

describe('jobs lost on the way', () => {
  it('queues again a transcript left queued or processing without a job, and none that has one', async () => {
    const t = h.deps.services.transcription;
    const u = await signedInUser(h.db);
    // A crash between the commit and the add, or Redis restarted without its data.
    const lost = await newTranscript(h.db, u.user.id, { mediaKey: 'media/x/lost', updatedAt: longAgo() });
    const dead = await newTranscript(h.db, u.user.id, {
      status: 'processing',
      progress: 55,
      mediaKey: 'media/x/dead',
      updatedAt: longAgo(),
    });
    const link = await newTranscript(h.db, u.user.id, {
      source: 'link',
      stage: 'downloading',
      updatedAt: longAgo(),
    });
    // Alive: a recent heartbeat, or a job that waits.
    const fresh = await newTranscript(h.db, u.user.id, { status: 'processing', mediaKey: 'media/x/fresh' });
    const waiting = await newTranscript(h.db, u.user.id, { mediaKey: 'media/x/w', updatedAt: longAgo() });
    await t.queue.add('transcribe', { transcriptId: waiting.id }, { key: waiting.id });

    expect(await recoverTranscriptJobs(t)).toBe(3);
    expect(await jobsOf(lost.id)).toHaveLength(1);
    expect(await jobsOf(dead.id)).toHaveLength(1);
    expect(await jobsOf(fresh.id)).toHaveLength(0);
    expect(await jobsOf(waiting.id)).toHaveLength(1);
    const imports = await h.db.select().from(jobs).where(eq(jobs.key, link.id));
    expect(imports.map((j) => j.name)).toEqual(['import-link']);
    // Run again: every one has its job now, nothing is doubled.
    expect(await recoverTranscriptJobs(t)).toBe(0);
  });

  it('creates a transcript and its job together, or neither (the upload stays to try again)', async () => {
    const t = h.deps.services.transcription;
    const u = await signedInUser(h.db);
    const file = makeMedia(path.resolve('tmp/test-media'), 'wav', 2);
    const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
    const { id: uploadId } = await tusUpload(fetcher, u.headers, readFileSync(file), 'crash.wav');
    const actor = await sessionActor(h.db, u.user);
    // The job cannot be written (the process dies there, the database refuses …).
    const failing: JobQueue = {
      ...t.queue,
      addInTransaction: async () => {
        throw new Error('killed between the row and its job');
      },
    };
    await expect(
      createFromUpload({ ...t, queue: failing }, actor, uploadRunSchema.parse({ upload_id: uploadId })),
    ).rejects.toThrow('killed between');
    expect(await h.db.select().from(transcripts).where(eq(transcripts.userId, u.user.id))).toHaveLength(0);
    // No file was left in storage for it, and the upload can still become a transcript.
    expect(readdirSafe(path.resolve('tmp/test-data-recover/media', u.user.id))).toEqual([]);
    const row = await createFromUpload(t, actor, uploadRunSchema.parse({ upload_id: uploadId }));
    expect(row.status).toBe('queued');
    expect(await jobsOf(row.id)).toHaveLength(1);
    expect(await t.storage.size(row.mediaKey!)).toBeGreaterThan(0);
    expect(
      await t.uploads.finished(uploadId!, { userId: u.user.id, workspaceId: actor.workspace.id }),
    ).toBeNull();
  });

  it('attempts again a webhook delivery whose job was lost, with the same id', async () => {
    const w = h.deps.services.webhooks;
    const u = await signedInUser(h.db);
    const [endpoint] = await h.db
      .insert(webhookEndpoints)
      .values({
        userId: u.user.id,
        url: 'https://example.test/hook',
        secret: 'whsec_x',
        events: ['transcript.completed'],
      })
      .returning();
    await h.db.insert(webhookDeliveries).values({
      id: 'msg_lost',
      endpointId: endpoint!.id,
      event: 'transcript.completed',
      payload: { type: 'transcript.completed' },
      createdAt: longAgo(),
    });
    expect(await recoverDeliveries(w)).toBe(1);
    const queued = await h.db.select().from(jobs).where(eq(jobs.key, 'msg_lost'));
    expect(queued.map((j) => [j.name, j.payload])).toEqual([
      ['deliver-webhook', { deliveryId: 'msg_lost', attempt: 1 }],
    ]);
    expect(await recoverDeliveries(w)).toBe(0);
  });
});
