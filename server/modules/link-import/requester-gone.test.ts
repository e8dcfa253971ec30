// A link import asked for by a member who then leaves the team (removed, or their account
// deleted) ends as failed with that reason instead of staying queued; an editor's retry makes
// the download theirs (decision 0042).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcripts, users, workspaceMembers, workspaces } from '../../db/schema';
import { newTranscript } from '../../test/factories';
import { testApp } from '../../test/harness';
import { signedInUser } from '../../test/users';
import { runLinkImport } from './download';

let h: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  h = await testApp();
});
afterAll(() => h.close());

const ctx = () => ({ signal: new AbortController().signal, attempt: 1, maxAttempts: 3 });

async function teamWithQueuedLink() {
  const owner = await signedInUser(h.db, { rankName: 'BASIC' });
  const editor = await signedInUser(h.db);
  const [ws] = await h.db.insert(workspaces).values({ kind: 'team', name: 'Links' }).returning();
  await h.db.insert(workspaceMembers).values([
    { workspaceId: ws!.id, userId: owner.user.id, role: 'owner' },
    { workspaceId: ws!.id, userId: editor.user.id, role: 'editor' },
  ]);
  // Nothing listens at this address: a download that did start would fail otherwise.
  const row = await newTranscript(h.db, editor.user.id, {
    workspaceId: ws!.id,
    source: 'link',
    sourceUrl: 'http://127.0.0.1:9/talk.mp3',
    status: 'queued',
    stage: 'downloading',
  });
  return { owner, editor, ws: ws!, row };
}

const stored = async (id: string) =>
  (await h.db.select().from(transcripts).where(eq(transcripts.id, id)))[0]!;

describe('a link import whose requester left', () => {
  it('fails with its reason when the member was removed, and an editor’s retry makes it theirs', async () => {
    const { owner, editor, ws, row } = await teamWithQueuedLink();
    const removed = await h.api('DELETE', `/workspaces/${ws.id}/members/${editor.user.id}`, owner.headers);
    expect(removed.json.code, JSON.stringify(removed.json)).toBe(200);
    await runLinkImport(h.deps.services.linkImport, { transcriptId: row.id, rename: true }, ctx());
    expect(await stored(row.id)).toMatchObject({ status: 'failed', errorCode: 'link_requester_gone' });
    const seen = await h.api('GET', `/transcripts/${row.id}`, { ...owner.headers, 'x-workspace': ws.id });
    expect(seen.json.data.error).toEqual({
      code: 'link_requester_gone',
      message: 'errors.media.link_requester_gone',
    });

    const retried = await h.api(
      'POST',
      `/transcripts/${row.id}/retry`,
      { ...owner.headers, 'x-workspace': ws.id },
      {},
    );
    expect(retried.json.code, JSON.stringify(retried.json)).toBe(200);
    expect(await stored(row.id)).toMatchObject({ status: 'queued', userId: owner.user.id, errorCode: null });
  });

  it('fails when the requester became a viewer or deleted their account', async () => {
    const demoted = await teamWithQueuedLink();
    await h.db
      .update(workspaceMembers)
      .set({ role: 'viewer' })
      .where(eq(workspaceMembers.userId, demoted.editor.user.id));
    await runLinkImport(h.deps.services.linkImport, { transcriptId: demoted.row.id, rename: true }, ctx());
    expect(await stored(demoted.row.id)).toMatchObject({
      status: 'failed',
      errorCode: 'link_requester_gone',
    });

    const gone = await teamWithQueuedLink();
    await h.db.delete(users).where(eq(users.id, gone.editor.user.id));
    expect((await stored(gone.row.id)).userId).toBeNull();
    await runLinkImport(h.deps.services.linkImport, { transcriptId: gone.row.id, rename: true }, ctx());
    expect(await stored(gone.row.id)).toMatchObject({ status: 'failed', errorCode: 'link_requester_gone' });
  });
});
