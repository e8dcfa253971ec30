// Working together on a transcript (issue #26 part 4): comments on a moment with mentions,
// replies and resolve; the mail to whoever is mentioned; the activity; who edited last and the
// lost-update refusal that names them.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { signedInUser } from '../test/users';
import { linkFrom, startSmtp } from '../test/smtp';
import { createMailer } from '../modules/mail/mailer';
import {
  transcripts,
  users,
  webhookDeliveries,
  webhookEndpoints,
  workspaceMembers,
  workspaces,
} from '../db/schema';
import { CommentCode, TranscriptCode, WorkspaceCode } from '../../common/error-codes';

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let h: Awaited<ReturnType<typeof testApp>>;
type Who = Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  smtp = await startSmtp();
  const mailer = createMailer({
    smtpUrl: smtp.url,
    from: 'ClipScribe <no-reply@test>',
    outboxDir: 'tmp/outbox',
    logger: console,
  });
  h = await testApp({}, {}, { mailer });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

async function member(
  ws: string,
  role: 'owner' | 'admin' | 'editor' | 'viewer',
  name: string,
  language = 'en',
) {
  const who = await signedInUser(h.db);
  await h.db.update(users).set({ name, language }).where(eq(users.id, who.user.id));
  await h.db.insert(workspaceMembers).values({ workspaceId: ws, userId: who.user.id, role });
  return { ...who, user: { ...who.user, name, language }, headers: { ...who.headers, 'x-workspace': ws } };
}

async function team() {
  const [ws] = await h.db.insert(workspaces).values({ kind: 'team', name: 'Podcast' }).returning();
  const owner = await member(ws!.id, 'owner', 'Olivia');
  const editor = await member(ws!.id, 'editor', 'Emil', 'de');
  const viewer = await member(ws!.id, 'viewer', 'Vera', 'ja');
  const [t] = await h.db
    .insert(transcripts)
    .values({
      workspaceId: ws!.id,
      userId: owner.user.id,
      name: 'Episode 12',
      source: 'upload',
      status: 'done',
      progress: 100,
      durationSec: 120,
      segments: [
        { start: 0, end: 4, text: 'Welcome back.' },
        { start: 61.5, end: 65, text: 'Our guest today.' },
      ],
    })
    .returning();
  return { ws: ws!.id, owner, editor, viewer, t: t! };
}

const call = (who: Who, method: string, path: string, body?: unknown) =>
  h.api(method, path, who.headers, body);

describe('comments', () => {
  it('comments on a segment, mentions a member who gets a mail in their language linking to the moment', async () => {
    const { t, viewer, editor, ws } = await team();
    const before = smtp.messages.length;
    const { json } = await call(viewer, 'POST', `/transcripts/${t.id}/comments`, {
      body: '@Emil is the name right?',
      segment_index: 1,
      mentions: [editor.user.id],
    });
    expect(json.code, JSON.stringify(json)).toBe(200);
    expect(json.data).toMatchObject({
      segment_index: 1,
      start: 61.5,
      end: 65,
      author: { id: viewer.user.id, name: 'Vera' },
      mentions: [{ id: editor.user.id, name: 'Emil' }],
      resolved: null,
    });
    const mail = await smtp.next(editor.user.email, before);
    expect(mail.subject).toBe('Vera hat Sie in „Episode 12“ erwähnt');
    expect(mail.text).toContain('1:01');
    const link = linkFrom(mail);
    expect(link.pathname).toBe(`/transcript/${t.id}`);
    expect(link.searchParams.get('t')).toBe('61');
    expect(link.hash).toBe(`#comment-${json.data.id}`);
    // A mention of someone outside the workspace is dropped, and nobody else was mailed.
    const stranger = await signedInUser(h.db);
    const other = await call(viewer, 'POST', `/transcripts/${t.id}/comments`, {
      body: 'Hello',
      start: 2,
      end: 3,
      mentions: [stranger.user.id],
    });
    expect(other.json.data.mentions).toEqual([]);
    expect(smtp.messages.filter((m) => m.to && JSON.stringify(m.to).includes(stranger.user.email))).toEqual(
      [],
    );
    const list = await call(editor, 'GET', `/transcripts/${t.id}/comments`);
    expect(list.json.data.items.map((c: { body: string }) => c.body)).toEqual([
      '@Emil is the name right?',
      'Hello',
    ]);
    expect(ws).toBeTruthy();
  });

  it('threads replies, resolves by author or editor, edits by author only', async () => {
    const { t, owner, editor, viewer } = await team();
    const first = (
      await call(viewer, 'POST', `/transcripts/${t.id}/comments`, { body: 'Typo here', segment_index: 0 })
    ).json.data;
    const reply = (
      await call(editor, 'POST', `/transcripts/${t.id}/comments`, { body: 'Fixed', parent_id: first.id })
    ).json.data;
    expect(reply).toMatchObject({ parent_id: first.id, segment_index: 0, start: 0 });
    // A reply to the reply joins the thread.
    const again = (
      await call(owner, 'POST', `/transcripts/${t.id}/comments`, { body: 'Thanks', parent_id: reply.id })
    ).json.data;
    expect(again.parent_id).toBe(first.id);
    // Editing someone else's comment: 403, whatever the role.
    const foreign = await call(owner, 'PATCH', `/transcripts/${t.id}/comments/${first.id}`, { body: 'No' });
    expect(foreign.json.code).toBe(WorkspaceCode.FORBIDDEN);
    const mine = await call(viewer, 'PATCH', `/transcripts/${t.id}/comments/${first.id}`, {
      body: 'Typo here!',
    });
    expect(mine.json.data.body).toBe('Typo here!');
    // A viewer resolves only their own; an editor resolves any.
    const byViewer = await call(viewer, 'POST', `/transcripts/${t.id}/comments/${reply.id}/resolve`, {
      resolved: true,
    });
    expect(byViewer.json.code).toBe(WorkspaceCode.FORBIDDEN);
    const byEditor = await call(editor, 'POST', `/transcripts/${t.id}/comments/${first.id}/resolve`, {
      resolved: true,
    });
    expect(byEditor.json.data.resolved).toMatchObject({ by: editor.user.id });
    const reopened = await call(viewer, 'POST', `/transcripts/${t.id}/comments/${first.id}/resolve`, {
      resolved: false,
    });
    expect(reopened.json.data.resolved).toBeNull();
    // Deleting the thread takes its replies.
    expect((await call(owner, 'DELETE', `/transcripts/${t.id}/comments/${first.id}`)).json.code).toBe(200);
    expect((await call(owner, 'GET', `/transcripts/${t.id}/comments`)).json.data.items).toEqual([]);
  });

  it('refuses a moment outside the transcript and a reply to another transcript’s comment', async () => {
    const { t, owner, ws } = await team();
    const bad = await call(owner, 'POST', `/transcripts/${t.id}/comments`, { body: 'x', segment_index: 9 });
    expect(bad.json.code).toBe(CommentCode.BAD_MOMENT);
    const backwards = await call(owner, 'POST', `/transcripts/${t.id}/comments`, {
      body: 'x',
      start: 5,
      end: 2,
    });
    expect(backwards.json.code).toBe(CommentCode.BAD_MOMENT);
    const blank = await call(owner, 'POST', `/transcripts/${t.id}/comments`, { body: '   ' });
    expect(blank.res.status).toBe(422);
    const [other] = await h.db
      .insert(transcripts)
      .values({ workspaceId: ws, userId: owner.user.id, name: 'Other', source: 'upload', status: 'done' })
      .returning();
    const c = (await call(owner, 'POST', `/transcripts/${other!.id}/comments`, { body: 'there' })).json.data;
    const cross = await call(owner, 'POST', `/transcripts/${t.id}/comments`, { body: 'x', parent_id: c.id });
    expect(cross.json.code).toBe(CommentCode.NOT_FOUND);
  });

  it('tells the comment.created webhook', async () => {
    const { t, owner, ws } = await team();
    const [endpoint] = await h.db
      .insert(webhookEndpoints)
      .values({
        workspaceId: ws,
        userId: owner.user.id,
        url: 'http://127.0.0.1:9/x',
        events: ['comment.created'],
        secret: 's',
      })
      .returning();
    const c = (await call(owner, 'POST', `/transcripts/${t.id}/comments`, { body: 'Hook me' })).json.data;
    const deliveries = await h.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint!.id));
    expect(deliveries.map((d) => d.event)).toEqual(['comment.created']);
    expect(deliveries[0]!.payload).toMatchObject({
      type: 'comment.created',
      data: { id: c.id, body: 'Hook me' },
    });
  });
});

describe('activity and last edit', () => {
  it('records who uploaded, edited, exported and shared, and names the last editor', async () => {
    const { t, owner, editor, viewer } = await team();
    const edit = await call(editor, 'PATCH', `/transcripts/${t.id}/segments`, {
      op: 'text',
      index: 0,
      text: 'Welcome!',
    });
    expect(edit.json.code).toBe(200);
    await call(editor, 'PATCH', `/transcripts/${t.id}/segments`, {
      op: 'text',
      index: 1,
      text: 'Our guest.',
    });
    const exported = await h.app.request(`/self-api/v1/transcripts/${t.id}/export?format=txt`, {
      headers: viewer.headers,
    });
    expect(exported.status).toBe(200);
    await call(owner, 'POST', `/transcripts/${t.id}/shares`, {});
    const { json } = await call(viewer, 'GET', `/transcripts/${t.id}/activity`);
    // Newest first; two edits in a row by one member are one entry.
    expect(json.data.items.map((a: { kind: string; by: { name: string } }) => [a.kind, a.by.name])).toEqual([
      ['shared', 'Olivia'],
      ['exported', 'Vera'],
      ['edited', 'Emil'],
    ]);
    const one = await call(viewer, 'GET', `/transcripts/${t.id}`);
    expect(one.json.data.last_edit).toMatchObject({ by: { id: editor.user.id, name: 'Emil' } });
  });

  it('refuses a stale edit naming who saved in between, whose version the page can reload', async () => {
    const { t, owner, editor } = await team();
    const seen = (await call(owner, 'GET', `/transcripts/${t.id}`)).json.data.updated_at;
    const theirs = await call(editor, 'PATCH', `/transcripts/${t.id}/segments`, {
      op: 'text',
      index: 0,
      text: 'Emil’s version',
      updated_at: seen,
    });
    expect(theirs.json.code).toBe(200);
    const mine = await call(owner, 'PATCH', `/transcripts/${t.id}/segments`, {
      op: 'text',
      index: 0,
      text: 'Olivia’s version',
      updated_at: seen,
    });
    expect(mine.json).toMatchObject({
      code: TranscriptCode.NOT_EDITABLE,
      message_key: 'errors.transcripts.editConflictBy',
      data: {
        name: 'Emil',
        edited_by: { id: editor.user.id, name: 'Emil' },
        updated_at: theirs.json.data.updated_at,
      },
    });
    const reloaded = await call(owner, 'GET', `/transcripts/${t.id}`);
    expect(reloaded.json.data.segments[0].text).toBe('Emil’s version');
  });
});
