import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcripts } from '../../db/schema';
import type { Db } from '../../db/client';
import { testApp } from '../../test/harness';
import { newTranscript } from '../../test/factories';
import { sessionActor, signedInUser } from '../../test/users';
import { createLocalEvents } from '../jobs/events';
import type { TranscriptionDeps } from './deps';
import { FINISHED_RETRY_MS, liveEvents, type LiveMessage } from './live';

// A reconnect storm (every page watching a long job opening its stream again once it ended) must
// not read the whole transcript per open: the embedded server's one thread stalled for seconds.
let h: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  h = await testApp({}, { DATA_DIR: path.resolve('tmp/test-data-live') });
});
afterAll(async () => h?.close());

const segments = Array.from({ length: 400 }, (_, i) => ({ start: i, end: i + 1, text: `Segment ${i}` }));

/** The database, counting the reads that take a whole transcript row (segments and all). */
function countingDb(db: Db) {
  const counter = { wholeRows: 0 };
  const select = (fields?: { row?: unknown }) => {
    if (fields === undefined || fields.row === transcripts) counter.wholeRows++;
    return fields === undefined ? db.select() : db.select(fields as never);
  };
  const counted = new Proxy(db, {
    get: (target, key) => (key === 'select' ? select : Reflect.get(target, key)),
  });
  return { db: counted as Db, counter };
}

async function collect(stream: AsyncGenerator<LiveMessage>) {
  const out: LiveMessage[] = [];
  for await (const m of stream) out.push(m);
  return out;
}

describe('the event stream of a finished transcript', () => {
  it('answers its final state without the segments, with a retry hint, and ends', async () => {
    const u = await signedInUser(h.db);
    const t = await newTranscript(h.db, u.user.id, { status: 'done', progress: 100, segments });
    const actor = await sessionActor(h.db, u.user);
    const { db, counter } = countingDb(h.db);
    const d = { db, events: createLocalEvents() } as unknown as TranscriptionDeps;
    const messages = await collect(liveEvents(d, actor, t.id, new AbortController().signal));
    expect(messages).toHaveLength(1);
    expect(messages[0]!.event).toBe('snapshot');
    expect(messages[0]!.retry).toBe(FINISHED_RETRY_MS);
    const data = JSON.parse(messages[0]!.data);
    expect(data).toMatchObject({ id: t.id, status: 'done', progress: 100 });
    expect(data).not.toHaveProperty('segments');
    expect(counter.wholeRows).toBe(0);
  });

  it('over HTTP: the retry line, one snapshot, the end; a stranger gets 404', async () => {
    const u = await signedInUser(h.db);
    const t = await newTranscript(h.db, u.user.id, { status: 'failed', errorCode: 'decode', segments });
    const res = await h.app.request(`/self-api/v1/transcripts/${t.id}/events`, { headers: u.headers });
    expect(res.status).toBe(200);
    const text = await res.text(); // ends by itself
    expect(text).toContain(`retry: ${FINISHED_RETRY_MS}\n`);
    const events = [...text.matchAll(/event: (\w+)\n/g)].map((m) => m[1]);
    expect(events).toEqual(['snapshot']);
    expect(text).not.toContain('Segment 0');
    const stranger = await signedInUser(h.db);
    const other = await h.app.request(`/self-api/v1/transcripts/${t.id}/events`, { headers: stranger.headers });
    expect(other.status).toBe(404);
  });

  it('gives every watcher of a job that ends the whole transcript from one read', async () => {
    const u = await signedInUser(h.db);
    const t = await newTranscript(h.db, u.user.id, { status: 'processing', progress: 50 });
    const actor = await sessionActor(h.db, u.user);
    const { db, counter } = countingDb(h.db);
    const events = createLocalEvents();
    const d = { db, events } as unknown as TranscriptionDeps;
    const watchers = Array.from({ length: 3 }, () => {
      const stream = liveEvents(d, actor, t.id, new AbortController().signal);
      return { stream, first: stream.next() };
    });
    for (const w of watchers) expect((await w.first).value?.event).toBe('snapshot');
    const opened = counter.wholeRows; // each open read the running row once
    const rest = watchers.map((w) => collect(w.stream));
    await h.db
      .update(transcripts)
      .set({ status: 'done', progress: 100, segments })
      .where(eq(transcripts.id, t.id));
    events.publish(t.id, { type: 'status', status: 'done', progress: 100 });
    for (const messages of await Promise.all(rest)) {
      const last = messages.at(-1)!;
      expect(last.event).toBe('snapshot');
      expect(last.retry).toBe(FINISHED_RETRY_MS);
      expect(JSON.parse(last.data).segments).toHaveLength(segments.length);
    }
    expect(counter.wholeRows - opened).toBe(1);
  });
});
