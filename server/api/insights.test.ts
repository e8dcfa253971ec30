// The AI outputs' API through a real app (PGlite, the database queue's language lane) with the
// `openai` adapter pointed at a local server speaking the chat completions protocol.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InsightCode, TranscriptCode } from '../../common/error-codes';
import type { InsightJson } from '../../common/insights';
import type { Segment } from '../../common/segments';
import { joinStreamed, type StreamedPiece, type StreamedText } from '../../common/streamed-text';
import { insights, transcripts, users, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { failing, readStream, streamed, type ChatServer } from '../test/chat-server';
import { newTranscript } from '../test/factories';
import type { testApp } from '../test/harness';
import { testAppWithModel } from '../test/model-app';
import { insightAnswer, insightReplies, taskOf } from '../test/insight-replies';
import { signedInUser } from '../test/users';
import { waitFor } from '../test/wait';

let chat: ChatServer;
let h: Awaited<ReturnType<typeof testApp>>;

let close: () => Promise<void>;

beforeAll(async () => {
  ({ chat, h, close } = await testAppWithModel());
});
afterAll(() => close());
beforeEach(() => {
  chat.requests.length = 0;
  chat.reply(insightReplies());
});

const segments: Segment[] = Array.from({ length: 12 }, (_, i) => ({
  start: i * 30,
  end: i * 30 + 29,
  text: `We discussed item ${i} of the plan.`,
}));

async function setup(opts: Parameters<typeof signedInUser>[1] = {}) {
  const u = await signedInUser(h.db, opts);
  const t = await newTranscript(h.db, u.user.id, { status: 'done', segments, durationSec: 360 });
  return { ...u, t };
}

async function settled(headers: Record<string, string>, id: string, kind: 'summary' | 'chapters') {
  return waitFor(
    async () => {
      const { json } = await h.api('GET', `/transcripts/${id}/insights`, headers);
      const i = json.data[kind] as InsightJson | null;
      return i && (i.status === 'done' || i.status === 'failed') ? (json.data as Record<string, any>) : null;
    },
    { ms: 15_000, what: `the ${kind}` },
  );
}

describe('AI outputs API', () => {
  it('makes a cited summary as a job, in the interface language, and sends summary.completed', async () => {
    const { user, headers, t } = await setup();
    await h.db.update(users).set({ language: 'ja' }).where(eq(users.id, user.id));
    await h.db.insert(webhookEndpoints).values({
      workspaceId: t.workspaceId,
      userId: user.id,
      url: 'https://hooks.example/x',
      events: ['summary.completed'],
      secret: 'whsec_dGVzdA==',
    });
    const { res, json } = await h.api('POST', `/transcripts/${t.id}/insights`, headers, { kind: 'summary' });
    expect(res.status).toBe(202);
    expect(json.data).toMatchObject({ kind: 'summary', status: 'queued', language: 'ja' });

    const data = await settled(headers, t.id, 'summary');
    const summary = data.summary as InsightJson;
    expect(summary.status).toBe('done');
    expect(summary.stale).toBe(false);
    expect(summary.model).toBe('fake-model');
    expect(summary.summary!.bottomLine.cites).toEqual([{ segment: 0, start: 0 }]);
    // The invented citation (segment 99999) and its point are gone.
    expect(summary.summary!.keyPoints.map((p) => p.text)).not.toContain('A point the model made up.');
    expect(data.usage).toEqual({ used: 1, limit: 10 });
    expect(taskOf(chat.requests[0]!).instructions).toContain('Write in Japanese.');

    const [delivery] = await waitFor(async () => {
      const rows = await h.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.event, 'summary.completed'));
      return rows.length > 0 ? rows : null;
    });
    expect(delivery!.payload.data).toMatchObject({
      transcript_id: t.id,
      insight: { kind: 'summary', status: 'done' },
    });
  });

  it('makes chapters in the language asked for, and says when the transcript changed since', async () => {
    const { headers, t } = await setup();
    await h.api('POST', `/transcripts/${t.id}/insights`, headers, {
      kind: 'chapters',
      language: 'transcript',
    });
    const data = await settled(headers, t.id, 'chapters');
    const chapters = (data.chapters as InsightJson).chapters!;
    expect(chapters.length).toBeGreaterThanOrEqual(1);
    expect(chapters[0]).toMatchObject({ segment: 0, start: 0 });
    expect(taskOf(chat.requests[0]!).instructions).toContain("Write in the transcript's own language.");

    await h.db
      .update(transcripts)
      .set({ segments: [{ ...segments[0]!, text: 'Edited.' }, ...segments.slice(1)] })
      .where(eq(transcripts.id, t.id));
    const { json } = await h.api('GET', `/transcripts/${t.id}/insights`, headers);
    expect(json.data.chapters.stale).toBe(true);
    expect(json.data.chapters.chapters).toEqual(chapters);
  });

  it('streams progress and generated text as server-sent events', async () => {
    const { headers, t } = await setup();
    const answer = insightAnswer({ path: '', auth: undefined, body: { model: 'x', messages: [] } });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Half the answer is written before the stream opens, the rest once it listens.
    chat.reply(streamed(answer.match(/.{1,10}/gs)!, { gapMs: 5, gate, gateAt: 10 }));
    await h.api('POST', `/transcripts/${t.id}/insights`, headers, { kind: 'summary' });
    const res = await h.app.request(`/self-api/v1/transcripts/${t.id}/insights/events`, { headers });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const body = await readStream(res, 'event: snapshot', release);
    const events = [...body.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((m) => ({
      event: m[1],
      data: JSON.parse(m[2]!),
    }));
    expect(events[0]!.event).toBe('snapshot');
    const tokens = events.filter((e) => e.event === 'token').map((e) => e.data as StreamedPiece);
    expect(tokens.reduce<StreamedText | undefined>(joinStreamed, undefined)?.text).toBe(answer);
    expect(events.at(-1)!.event).toBe('snapshot');
    expect(events.at(-1)!.data.summary.status).toBe('done');
  });

  it('counts AI actions against the plan, refuses past it with an upgrade hint, gives back failures', async () => {
    const { headers, t } = await setup({ rankName: 'Enterprise', customLimits: { ai_actions_per_month: 1 } });
    chat.reply(failing(400, 'model not found'));
    await h.api('POST', `/transcripts/${t.id}/insights`, headers, { kind: 'summary' });
    const failed = await settled(headers, t.id, 'summary');
    expect(failed.summary).toMatchObject({ status: 'failed', error_code: 'remote_rejected' });
    expect(failed.usage).toEqual({ used: 0, limit: 1 });

    chat.reply(insightReplies());
    await h.api('POST', `/transcripts/${t.id}/insights`, headers, { kind: 'summary' });
    await settled(headers, t.id, 'summary');
    const { res, json } = await h.api('POST', `/transcripts/${t.id}/insights`, headers, { kind: 'chapters' });
    expect(res.status).toBe(403);
    expect(json.code).toBe(InsightCode.QUOTA_EXCEEDED);
    expect(json.data).toMatchObject({ limit: 1 });
  });

  it('answers a transcript that is not done, or not the caller’s, like the rest of the API', async () => {
    const { headers, t } = await setup();
    const other = await signedInUser(h.db);
    const r1 = await h.api('POST', `/transcripts/${t.id}/insights`, other.headers, { kind: 'summary' });
    expect(r1.json.code).toBe(TranscriptCode.NOT_FOUND);
    const r2 = await h.api('GET', `/transcripts/${t.id}/insights`, other.headers);
    expect(r2.json.code).toBe(TranscriptCode.NOT_FOUND);
    const queued = await newTranscript(h.db, (await signedInUser(h.db)).user.id);
    expect((await h.api('GET', `/transcripts/${queued.id}/insights`, headers)).json.code).toBe(
      TranscriptCode.NOT_FOUND,
    );
    const mine = await newTranscript(h.db, t.userId!);
    const r3 = await h.api('POST', `/transcripts/${mine.id}/insights`, headers, { kind: 'summary' });
    expect(r3.json.code).toBe(InsightCode.NOT_READY);
    const r4 = await h.api('POST', `/transcripts/${t.id}/insights`, headers, { kind: 'poem' });
    expect(r4.res.status).toBe(422);
    expect(await h.db.select().from(insights).where(eq(insights.transcriptId, mine.id))).toEqual([]);
  });
});
