// Issue #26 part 5: a team workspace works under its owner's plan, and minutes, jobs at once,
// export formats and share links are counted for the workspace, not for whoever acts in it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { signedInUser } from '../test/users';
import { newTranscript } from '../test/factories';
import {
  aiActions,
  renderJobs,
  translationTracks,
  usageRecords,
  workspaceMembers,
  workspaces,
} from '../db/schema';
import { aiUsage, chargeAction } from '../modules/insights/quota';
import { translationQuota } from '../modules/translation/quota';
import { renderQuota } from '../modules/render/quota';
import { workspacePlan } from '../modules/workspaces/plan';
import { InsightCode } from '../../common/error-codes';
import { assertAdmission, minutesUsed } from '../modules/transcription/admission';
import { AdmissionCode, ExportCode, ShareCode } from '../../common/error-codes';
import { eq } from 'drizzle-orm';

let h: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  h = await testApp();
});
afterAll(() => h.close());

/** A BASIC owner's team with a Free editor; the owner already used `usedMinutes` at home. */
async function team(usedMinutes = 0) {
  const owner = await signedInUser(h.db, { rankName: 'BASIC' });
  const editor = await signedInUser(h.db, { rankName: 'Free' });
  const [ws] = await h.db.insert(workspaces).values({ kind: 'team', name: 'Pool' }).returning();
  await h.db.insert(workspaceMembers).values([
    { workspaceId: ws!.id, userId: owner.user.id, role: 'owner' },
    { workspaceId: ws!.id, userId: editor.user.id, role: 'editor' },
  ]);
  const [home] = await h.db.select().from(workspaces).where(eq(workspaces.personalUserId, owner.user.id));
  if (usedMinutes) {
    await h.db.insert(usageRecords).values({
      workspaceId: home!.id,
      userId: owner.user.id,
      transcriptId: randomUUID(),
      seconds: usedMinutes * 60,
    });
  }
  const inTeam = (who: typeof owner) => ({ ...who.headers, 'x-workspace': ws!.id });
  return { ws: ws!, owner, editor, inTeam };
}

describe('a team works under its owner’s plan, its limits pooled', () => {
  it('admits a Free member’s file by the team’s plan and charges the owner’s pool', async () => {
    const { ws, owner, editor } = await team();
    // 60 minutes: beyond Free (30), within BASIC.
    await expect(
      assertAdmission(h.db, editor.user, { durationSec: 3600, workspaceId: ws.id }, new Date()),
    ).resolves.toMatchObject({ minutes_per_month: 900 });
    await expect(assertAdmission(h.db, editor.user, { durationSec: 3600 }, new Date())).rejects.toMatchObject(
      {
        code: AdmissionCode.DURATION_TOO_LONG,
      },
    );
    // The editor's minutes in the team count for the owner's plan, not the editor's.
    const t = await newTranscript(h.db, editor.user.id, { workspaceId: ws.id });
    await h.db
      .insert(usageRecords)
      .values({ workspaceId: ws.id, userId: editor.user.id, transcriptId: t.id, seconds: 600 });
    expect(await minutesUsed(h.db, owner.user, new Date())).toBe(10);
    expect(await minutesUsed(h.db, editor.user, new Date())).toBe(0);
  });

  it('refuses a file once the owner’s minutes are spent, at home or in the team', async () => {
    const { ws, editor } = await team(899);
    await expect(
      assertAdmission(h.db, editor.user, { durationSec: 120, workspaceId: ws.id }, new Date()),
    ).rejects.toMatchObject({ code: AdmissionCode.QUOTA_EXCEEDED });
    // The editor's own workspace still has the editor's own (Free) minutes.
    await expect(assertAdmission(h.db, editor.user, { durationSec: 120 }, new Date())).resolves.toBeTruthy();
  });

  it('counts jobs at once over the pool', async () => {
    const { ws, editor, owner } = await team();
    const [home] = await h.db.select().from(workspaces).where(eq(workspaces.personalUserId, owner.user.id));
    // BASIC runs a few at once: fill them from the owner's own workspace.
    const limits = await assertAdmission(h.db, editor.user, { workspaceId: ws.id }, new Date());
    for (let i = 0; i < limits.concurrent_jobs; i++) {
      await newTranscript(h.db, owner.user.id, { workspaceId: home!.id, status: 'queued' });
    }
    await expect(
      assertAdmission(h.db, editor.user, { workspaceId: ws.id }, new Date()),
    ).rejects.toMatchObject({
      code: AdmissionCode.TOO_MANY_JOBS,
    });
  });

  it('exports and shares by the team’s plan, share links counted per workspace', async () => {
    const { ws, editor, inTeam } = await team();
    const t = await newTranscript(h.db, editor.user.id, { workspaceId: ws.id, status: 'done' });
    // docx is not in Free; the team's BASIC plan has it.
    const inTeamExport = await h.app.request(`/self-api/v1/transcripts/${t.id}/export?format=docx`, {
      headers: inTeam(editor),
    });
    expect(inTeamExport.status).toBe(200);
    const mine = await newTranscript(h.db, editor.user.id, { status: 'done' });
    const home = await h.api('GET', `/transcripts/${mine.id}/export?format=docx`, editor.headers);
    expect(home.json.code).toBe(ExportCode.FORMAT_NOT_IN_PLAN);
    // Free allows 3 links; in the team the editor makes more (BASIC: 100).
    for (let i = 0; i < 4; i++) {
      const made = await h.api('POST', `/transcripts/${t.id}/shares`, inTeam(editor), {});
      expect(made.json.code).toBe(200);
    }
    for (let i = 0; i < 3; i++) await h.api('POST', `/transcripts/${mine.id}/shares`, editor.headers, {});
    const fourth = await h.api('POST', `/transcripts/${mine.id}/shares`, editor.headers, {});
    expect(fourth.json.code).toBe(ShareCode.LIMIT_REACHED);
  });

  it('counts AI actions, translation characters and render minutes over the owner’s pool', async () => {
    const { ws, owner, editor } = await team();
    const [home] = await h.db.select().from(workspaces).where(eq(workspaces.personalUserId, owner.user.id));
    // A second team of the same owner: its use draws on the same pool.
    const [other] = await h.db.insert(workspaces).values({ kind: 'team', name: 'Second' }).returning();
    await h.db
      .insert(workspaceMembers)
      .values({ workspaceId: other!.id, userId: owner.user.id, role: 'owner' });
    const now = new Date();
    const t = await newTranscript(h.db, owner.user.id, { workspaceId: home!.id, status: 'done' });
    const u = await newTranscript(h.db, editor.user.id, { workspaceId: ws.id, status: 'done' });
    await h.db.insert(aiActions).values([
      { workspaceId: home!.id, userId: owner.user.id, transcriptId: t.id, kind: 'summary', createdAt: now },
      { workspaceId: ws.id, userId: editor.user.id, transcriptId: u.id, kind: 'summary', createdAt: now },
    ]);
    await h.db.insert(translationTracks).values([
      {
        workspaceId: home!.id,
        userId: owner.user.id,
        transcriptId: t.id,
        language: 'de',
        chars: 1000,
        status: 'done',
      },
      {
        workspaceId: ws.id,
        userId: editor.user.id,
        transcriptId: u.id,
        language: 'fr',
        chars: 500,
        status: 'done',
      },
    ]);
    const job = { options: { track: 'original' } as never, maxResolution: 720, status: 'done' as const };
    await h.db.insert(renderJobs).values([
      { ...job, workspaceId: home!.id, userId: owner.user.id, transcriptId: t.id, durationSec: 120 },
      { ...job, workspaceId: ws.id, userId: editor.user.id, transcriptId: u.id, durationSec: 60 },
    ]);
    for (const w of [ws, other!, home!]) {
      expect((await aiUsage(h.db, w, now)).used).toBe(2);
      expect((await translationQuota(h.db, w, now)).used).toBe(1500);
      expect((await renderQuota(h.db, w.id, await workspacePlan(h.db, w), now)).minutes_used).toBe(3);
    }
    // The Free editor's own workspace has the editor's own plan and counts nothing of the team's.
    const [mine] = await h.db.select().from(workspaces).where(eq(workspaces.personalUserId, editor.user.id));
    expect((await aiUsage(h.db, mine!, now)).used).toBe(0);
    expect((await translationQuota(h.db, mine!, now)).used).toBe(0);
  });

  it('refuses an AI action in a new team once the owner’s month is spent elsewhere', async () => {
    const { owner } = await team();
    const [home] = await h.db.select().from(workspaces).where(eq(workspaces.personalUserId, owner.user.id));
    const now = new Date();
    const limit = (await aiUsage(h.db, home!, now)).limit!;
    await h.db
      .insert(aiActions)
      .values(
        Array.from({ length: limit }, () => ({
          workspaceId: home!.id,
          userId: owner.user.id,
          transcriptId: null,
          kind: 'ask',
          createdAt: now,
        })),
      );
    const [fresh] = await h.db.insert(workspaces).values({ kind: 'team', name: 'Fresh' }).returning();
    await h.db
      .insert(workspaceMembers)
      .values({ workspaceId: fresh!.id, userId: owner.user.id, role: 'owner' });
    await expect(
      chargeAction(h.db, {
        workspaceId: fresh!.id,
        userId: owner.user.id,
        transcriptId: null,
        kind: 'ask',
        now,
      }),
    ).rejects.toMatchObject({ code: InsightCode.QUOTA_EXCEEDED });
  });
});
