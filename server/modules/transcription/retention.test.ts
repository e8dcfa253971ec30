import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { transcripts, users, workspaceMembers, workspaces } from '../../db/schema';
import { testApp } from '../../test/harness';
import { newTranscript } from '../../test/factories';
import { signedInUser } from '../../test/users';
import { mediaKey } from '../storage/storage';
import { sweepExpiredTranscripts } from './retention';

const DAY = 86_400_000;
let clock = new Date('2026-11-22T00:00:00Z');
let h: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  h = await testApp(
    {},
    { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cs-retention-')) },
    { now: () => clock },
  );
});
afterAll(() => h.close());

async function transcriptAged(
  userId: string,
  days: number,
  status: 'done' | 'processing' = 'done',
  workspaceId?: string,
) {
  const deps = h.deps.services.transcription;
  const row = await newTranscript(h.db, userId, {
    name: `t-${days}`,
    status,
    ...(workspaceId && { workspaceId }),
    createdAt: new Date(clock.getTime() - days * DAY),
  });
  const key = mediaKey(userId, row!.id);
  const file = path.join(tmpdir(), `media-${row!.id}`);
  writeFileSync(file, 'media bytes');
  await deps.storage.adoptFile(file, key);
  await h.db.update(transcripts).set({ mediaKey: key }).where(eq(transcripts.id, row!.id));
  return { id: row!.id, key };
}

const ids = async (userId: string) =>
  (await h.db.select({ id: transcripts.id }).from(transcripts).where(eq(transcripts.userId, userId))).map(
    (r) => r.id,
  );

describe('plan retention', () => {
  it('deletes transcripts and media past the plan’s days, keeps the rest', async () => {
    const free = await signedInUser(h.db); // 30 days
    const starter = await signedInUser(h.db, { rankName: 'STARTER' }); // 365 days
    const basic = await signedInUser(h.db, { rankName: 'BASIC' }); // kept until deleted
    const old = await transcriptAged(free.user.id, 31);
    const running = await transcriptAged(free.user.id, 40, 'processing');
    const recent = await transcriptAged(free.user.id, 29);
    const starterOld = await transcriptAged(starter.user.id, 31);
    const starterAncient = await transcriptAged(starter.user.id, 366);
    const basicAncient = await transcriptAged(basic.user.id, 2000);

    expect(await sweepExpiredTranscripts(h.deps.services.transcription)).toBe(2);
    expect((await ids(free.user.id)).sort()).toEqual([running.id, recent.id].sort());
    expect(await ids(starter.user.id)).toEqual([starterOld.id]);
    expect(await ids(basic.user.id)).toEqual([basicAncient.id]);
    const storage = h.deps.services.transcription.storage;
    expect(await storage.size(old.key)).toBeNull();
    expect(await storage.size(starterAncient.key)).toBeNull();
    expect(await storage.size(recent.key)).toBe(11);
  });

  it('counts from a downgrade, so nothing disappears the day a plan ends', async () => {
    const u = await signedInUser(h.db);
    await h.db
      .update(users)
      .set({ rankChangedAt: new Date(clock.getTime() - 5 * DAY) })
      .where(eq(users.id, u.user.id));
    const old = await transcriptAged(u.user.id, 300);
    await sweepExpiredTranscripts(h.deps.services.transcription);
    expect(await ids(u.user.id)).toEqual([old.id]);
    clock = new Date(clock.getTime() + 26 * DAY);
    await sweepExpiredTranscripts(h.deps.services.transcription);
    expect(await ids(u.user.id)).toEqual([]);
  });

  it('applies an Enterprise account’s own retention, and none when it has none', async () => {
    const ent = await signedInUser(h.db, { rankName: 'Enterprise' });
    const custom = await signedInUser(h.db, { rankName: 'ACME', customLimits: { retention_days: 7 } });
    const a = await transcriptAged(ent.user.id, 900);
    await transcriptAged(custom.user.id, 8);
    const c = await transcriptAged(custom.user.id, 6);
    await sweepExpiredTranscripts(h.deps.services.transcription);
    expect(await ids(ent.user.id)).toEqual([a.id]);
    expect(await ids(custom.user.id)).toEqual([c.id]);
  });

  it('goes by the team’s plan, not the uploader’s, and sweeps a deleted member’s uploads', async () => {
    const team = async (ownerRank: string) => {
      const owner = await signedInUser(h.db, { rankName: ownerRank });
      const [ws] = await h.db.insert(workspaces).values({ kind: 'team', name: ownerRank }).returning();
      await h.db
        .insert(workspaceMembers)
        .values({ workspaceId: ws!.id, userId: owner.user.id, role: 'owner' });
      return ws!.id;
    };
    const inTeam = async (ws: string) =>
      (
        await h.db.select({ id: transcripts.id }).from(transcripts).where(eq(transcripts.workspaceId, ws))
      ).map((r) => r.id);
    const kept = await team('BASIC'); // kept until deleted
    const free = await team('Free'); // 30 days
    const freeMember = await signedInUser(h.db);
    const basicMember = await signedInUser(h.db, { rankName: 'BASIC' });
    const leaving = await signedInUser(h.db, { rankName: 'BASIC' });
    await h.db.insert(workspaceMembers).values([
      { workspaceId: kept, userId: freeMember.user.id, role: 'editor' },
      { workspaceId: free, userId: basicMember.user.id, role: 'editor' },
      { workspaceId: free, userId: leaving.user.id, role: 'editor' },
    ]);
    const keptByFree = await transcriptAged(freeMember.user.id, 400, 'done', kept);
    const freeByBasic = await transcriptAged(basicMember.user.id, 31, 'done', free);
    const freeRecent = await transcriptAged(basicMember.user.id, 10, 'done', free);
    const orphan = await transcriptAged(leaving.user.id, 40, 'done', free);
    await h.db.delete(users).where(eq(users.id, leaving.user.id));
    expect(
      (await h.db.select().from(transcripts).where(eq(transcripts.id, orphan.id)))[0]?.userId,
    ).toBeNull();

    await sweepExpiredTranscripts(h.deps.services.transcription);
    expect(await inTeam(kept)).toEqual([keptByFree.id]);
    expect(await inTeam(free)).toEqual([freeRecent.id]);
    const storage = h.deps.services.transcription.storage;
    expect(await storage.size(freeByBasic.key)).toBeNull();
    expect(await storage.size(orphan.key)).toBeNull();
  });
});
