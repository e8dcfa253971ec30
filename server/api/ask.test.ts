// Questions through a real app (PGlite, the database queue's language lane) with the `openai`
// adapter pointed at a local server speaking the chat completions protocol: the conversation, its
// streamed answer, quotas, folders and who may ask.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AskMessageJson, ConversationJson } from '../../common/ask';
import { AskCode, FolderCode, InsightCode, TranscriptCode } from '../../common/error-codes';
import type { Segment } from '../../common/segments';
import { joinStreamed, type StreamedPiece, type StreamedText } from '../../common/streamed-text';
import { askMessages, workspaceMembers, workspaces } from '../db/schema';
import { askAnswer, askOf, askReplies } from '../test/ask-replies';
import { failing, readStream, streamed, type ChatServer } from '../test/chat-server';
import { newFolder, newTranscript } from '../test/factories';
import type { testApp } from '../test/harness';
import { testAppWithModel } from '../test/model-app';
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
  chat.reply(askReplies());
});

const segments: Segment[] = Array.from({ length: 12 }, (_, i) => ({
  start: i * 30,
  end: i * 30 + 29,
  text: i === 5 ? 'The launch moves to the second week of October.' : `We discussed item ${i} of the plan.`,
}));

async function setup(opts: Parameters<typeof signedInUser>[1] = {}) {
  const u = await signedInUser(h.db, opts);
  const t = await newTranscript(h.db, u.user.id, { status: 'done', segments, durationSec: 360 });
  return { ...u, t };
}

async function settled(headers: Record<string, string>, path: string): Promise<ConversationJson> {
  return waitFor(
    async () => {
      const { json } = await h.api('GET', `${path}/conversation`, headers);
      const c = json.data as ConversationJson;
      const last = c.messages.at(-1);
      return last && (last.status === 'done' || last.status === 'failed') ? c : null;
    },
    { ms: 15_000, what: 'the answer' },
  );
}

describe('ask API', () => {
  it('answers with citations as a job, keeps the conversation, and follow-ups see it', async () => {
    const { headers, t } = await setup();
    const { res, json } = await h.api('POST', `/transcripts/${t.id}/ask`, headers, {
      question: 'When is the launch?',
    });
    expect(res.status).toBe(202);
    expect(json.data.question).toMatchObject({
      role: 'user',
      content: 'When is the launch?',
      status: 'done',
    });
    expect(json.data.answer).toMatchObject({ role: 'assistant', status: 'queued', content: '' });

    const c = await settled(headers, `/transcripts/${t.id}`);
    expect(c.scope).toEqual({ kind: 'transcript', id: t.id });
    expect(c.folder).toBeNull();
    expect(c.transcripts).toEqual([{ id: t.id, name: t.name }]);
    expect(c.usage).toEqual({ used: 1, limit: 10 });
    const answer = c.messages[1]!;
    expect(answer).toMatchObject({
      status: 'done',
      found: true,
      content: 'The transcript mentions launch here. [1]',
    });
    expect(answer.citations).toEqual([{ transcript_id: t.id, segment: 5, start: 150 }]);

    await h.api('POST', `/transcripts/${t.id}/ask`, headers, { question: 'Who will tell the customers?' });
    const after = await settled(headers, `/transcripts/${t.id}`);
    expect(after.messages.map((m) => [m.role, m.found])).toEqual([
      ['user', null],
      ['assistant', true],
      ['user', null],
      ['assistant', false],
    ]);
    expect(askOf(chat.requests[1]!).conversation).toBe(
      'Question: When is the launch?\nAnswer: The transcript mentions launch here.',
    );
    expect(after.usage.used).toBe(2);

    const cleared = await h.api('DELETE', `/transcripts/${t.id}/conversation`, headers);
    expect(cleared.json.data).toEqual({ cleared: true });
    expect((await h.api('GET', `/transcripts/${t.id}/conversation`, headers)).json.data.messages).toEqual([]);
  });

  it('streams the answer as server-sent events, and takes one question at a time', async () => {
    const { headers, t } = await setup();
    const text = askAnswer({
      path: '',
      auth: undefined,
      body: {
        model: 'x',
        messages: [
          {
            role: 'user',
            content: `<transcript>\n[5] 02:30 ${segments[5]!.text}\n</transcript>\n\n<question>\nWhen is the launch?\n</question>`,
          },
        ],
      },
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    chat.reply(streamed(text.match(/.{1,10}/gs)!, { gapMs: 20, gate }));
    await h.api('POST', `/transcripts/${t.id}/ask`, headers, { question: 'When is the launch?' });
    const busy = await h.api('POST', `/transcripts/${t.id}/ask`, headers, { question: 'And then?' });
    expect(busy.res.status).toBe(409);
    expect(busy.json.code).toBe(AskCode.BUSY);

    const res = await h.app.request(`/self-api/v1/transcripts/${t.id}/conversation/events`, { headers });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    // The model writes once the stream listens (its first event): every piece reaches it.
    const body = await readStream(res, 'event: status', release);
    const events = [...body.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((m) => ({
      event: m[1],
      data: JSON.parse(m[2]!),
    }));
    expect(events[0]!.event).toBe('status');
    const tokens = events.filter((e) => e.event === 'token').map((e) => e.data as StreamedPiece);
    expect(tokens.reduce<StreamedText | undefined>(joinStreamed, undefined)?.text).toBe(text);
    const last = events.at(-1)!;
    expect(last.event).toBe('message');
    expect((last.data as AskMessageJson).citations).toEqual([
      { transcript_id: t.id, segment: 5, start: 150 },
    ]);
    // Nothing on its way: the stream ends at once.
    const idle = await h.app.request(`/self-api/v1/transcripts/${t.id}/conversation/events`, { headers });
    expect(await idle.text()).toBe('');
  });

  it('charges one AI action per question, refuses past the plan, gives back failures', async () => {
    const { headers, t } = await setup({ rankName: 'Enterprise', customLimits: { ai_actions_per_month: 1 } });
    chat.reply(failing(400, 'model not found'));
    await h.api('POST', `/transcripts/${t.id}/ask`, headers, { question: 'When is the launch?' });
    const failed = await settled(headers, `/transcripts/${t.id}`);
    expect(failed.messages[1]).toMatchObject({ status: 'failed', error_code: 'remote_rejected' });
    expect(failed.usage).toEqual({ used: 0, limit: 1 });

    chat.reply(askReplies());
    await h.api('POST', `/transcripts/${t.id}/ask`, headers, { question: 'When is the launch?' });
    await settled(headers, `/transcripts/${t.id}`);
    const { res, json } = await h.api('POST', `/transcripts/${t.id}/ask`, headers, { question: 'Why?' });
    expect(res.status).toBe(403);
    expect(json.code).toBe(InsightCode.QUOTA_EXCEEDED);
  });

  it('asks about the finished transcripts of a folder', async () => {
    const { user, headers } = await setup();
    const folder = await newFolder(h.db, user.id);
    const a = await newTranscript(h.db, user.id, {
      status: 'done',
      folderId: folder.id,
      name: 'Kick-off',
      segments: [{ start: 0, end: 5, text: 'Welcome to the project kick-off.' }],
    });
    const b = await newTranscript(h.db, user.id, {
      status: 'done',
      folderId: folder.id,
      name: 'Review',
      segments: [
        { start: 0, end: 5, text: 'Review opens.' },
        { start: 6, end: 9, text: 'The supplier Northwind was dropped.' },
      ],
    });
    await newTranscript(h.db, user.id, { status: 'processing', folderId: folder.id });
    const { res } = await h.api('POST', `/folders/${folder.id}/ask`, headers, {
      question: 'What happened to Northwind?',
    });
    expect(res.status).toBe(202);
    const c = await settled(headers, `/folders/${folder.id}`);
    expect(c.scope).toEqual({ kind: 'folder', id: folder.id });
    expect(c.transcripts.map((x) => x.name)).toEqual(['Kick-off', 'Review', 't']);
    const own = (await h.api('GET', `/transcripts/${a.id}/conversation`, headers)).json
      .data as ConversationJson;
    expect(own.folder).toEqual({ id: folder.id, name: folder.name });
    expect(c.messages[1]!.citations).toEqual([{ transcript_id: b.id, segment: 1, start: 6 }]);
    const { material } = askOf(chat.requests[0]!);
    expect(material).toContain('## Kick-off');
    expect(material).toContain('## Review');
    // The transcript's own conversation is another one.
    expect((await h.api('GET', `/transcripts/${a.id}/conversation`, headers)).json.data.messages).toEqual([]);

    const empty = await newFolder(h.db, user.id);
    const r = await h.api('POST', `/folders/${empty.id}/ask`, headers, { question: 'Anything?' });
    expect(r.res.status).toBe(409);
    expect(r.json.code).toBe(AskCode.FOLDER_EMPTY);
  });

  it('lets a viewer ask and keeps each person’s conversation their own; strangers get 404', async () => {
    const { user, headers, t } = await setup();
    const [team] = await h.db
      .insert(workspaces)
      .values({ kind: 'team', name: 'Team', createdBy: user.id })
      .returning();
    await h.db.insert(workspaceMembers).values({ workspaceId: team!.id, userId: user.id, role: 'owner' });
    const viewer = await signedInUser(h.db);
    await h.db
      .insert(workspaceMembers)
      .values({ workspaceId: team!.id, userId: viewer.user.id, role: 'viewer' });
    const shared = await newTranscript(h.db, user.id, { status: 'done', segments, workspaceId: team!.id });
    const asked = await h.api('POST', `/transcripts/${shared.id}/ask`, viewer.headers, {
      question: 'When is the launch?',
    });
    expect(asked.res.status).toBe(202);
    await settled(viewer.headers, `/transcripts/${shared.id}`);
    expect(
      (await h.api('GET', `/transcripts/${shared.id}/conversation`, headers)).json.data.messages,
    ).toEqual([]);
    // The owner clearing theirs leaves the viewer's.
    await h.api('DELETE', `/transcripts/${shared.id}/conversation`, headers);
    expect(await h.db.select().from(askMessages).where(eq(askMessages.userId, viewer.user.id))).toHaveLength(
      2,
    );

    const stranger = await signedInUser(h.db);
    for (const [method, path] of [
      ['POST', `/transcripts/${t.id}/ask`],
      ['GET', `/transcripts/${t.id}/conversation`],
      ['DELETE', `/transcripts/${t.id}/conversation`],
      ['GET', `/transcripts/${t.id}/conversation/events`],
    ] as const) {
      const r = await h.api(
        method,
        path,
        stranger.headers,
        method === 'POST' ? { question: 'Hi?' } : undefined,
      );
      expect(r.json.code, path).toBe(TranscriptCode.NOT_FOUND);
    }
    const folder = await newFolder(h.db, user.id);
    const r = await h.api('POST', `/folders/${folder.id}/ask`, stranger.headers, { question: 'Hi?' });
    expect(r.json.code).toBe(FolderCode.NOT_FOUND);
  });

  it('refuses an empty or too long question, and a transcript with no text yet', async () => {
    const { user, headers, t } = await setup();
    expect((await h.api('POST', `/transcripts/${t.id}/ask`, headers, { question: '  ' })).res.status).toBe(
      422,
    );
    expect(
      (await h.api('POST', `/transcripts/${t.id}/ask`, headers, { question: 'x'.repeat(1001) })).res.status,
    ).toBe(422);
    const queued = await newTranscript(h.db, user.id);
    const r = await h.api('POST', `/transcripts/${queued.id}/ask`, headers, { question: 'Hi?' });
    expect(r.json.code).toBe(InsightCode.NOT_READY);
    expect(await h.db.select().from(askMessages).where(eq(askMessages.transcriptId, queued.id))).toEqual([]);
  });
});
