import { and, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import { DAY_MS } from '../../../common/dates';
import { RANK_LIMITS, RANKS } from '../../../common/ranks';
import { transcripts } from '../../db/schema';
import { planHolders } from '../workspaces/plan';
import type { TranscriptionDeps } from './deps';
import { deleteRenderFiles, renderFilesOf } from '../render/files';

/**
 * Plans keep transcripts for a number of days (common/ranks.ts retention_days). A transcript
 * goes, with its media, once it is older than that, counted from the later of its creation and
 * the plan holder's last rank change, so a downgrade never deletes anything at once. The plan is
 * the transcript's workspace's (decision 0041: its owner's), not the uploader's, who may be on
 * another plan or have deleted their account; a team left without an owner keeps Free's days,
 * as `workspacePlan` says. Jobs still running are left alone. Returns how many were deleted.
 */
export async function sweepExpiredTranscripts(deps: TranscriptionDeps, batch = 500): Promise<number> {
  const now = deps.now();
  const users = planHolders(deps.db);
  const age = sql`greatest(${transcripts.createdAt}, coalesce(${users.rankChangedAt}, ${transcripts.createdAt}))`;
  const finished = notInArray(transcripts.status, ['queued', 'processing']);
  const conditions = [];
  for (const rank of RANKS) {
    const days = RANK_LIMITS[rank].retention_days;
    if (days === null || rank === 'Enterprise') continue;
    conditions.push(
      and(
        sql`lower(coalesce(${users.rankName}, 'Free')) = ${rank.toLowerCase()}`,
        lt(age, new Date(now.getTime() - days * DAY_MS)),
      ),
    );
  }
  // Enterprise and customised accounts: only their own retention_days, when an admin set one.
  const standard = RANKS.filter((r) => r !== 'Enterprise').map((r) => r.toLowerCase());
  conditions.push(
    and(
      sql`lower(${users.rankName}) not in (${sql.join(
        standard.map((r) => sql`${r}`),
        sql`, `,
      )})`,
      sql`(${users.customLimits} ->> 'retention_days') is not null`,
      sql`${age} < ${now}::timestamptz - make_interval(days => (${users.customLimits} ->> 'retention_days')::int)`,
    ),
  );
  let deleted = 0;
  for (const condition of conditions) {
    const rows = await deps.db
      .select({
        id: transcripts.id,
        mediaKey: transcripts.mediaKey,
        workspaceId: transcripts.workspaceId,
        name: transcripts.name,
      })
      .from(transcripts)
      .leftJoin(users, eq(users.workspaceId, transcripts.workspaceId))
      .where(and(finished, condition))
      .limit(batch);
    if (rows.length === 0) continue;
    const renderFiles = await renderFilesOf(
      deps.db,
      rows.map((r) => r.id),
    );
    await deps.db.delete(transcripts).where(
      inArray(
        transcripts.id,
        rows.map((r) => r.id),
      ),
    );
    await deleteRenderFiles(deps.storage, renderFiles, deps.logger);
    for (const row of rows) {
      if (row.mediaKey) await deps.storage.delete(row.mediaKey).catch(() => undefined);
      await deps.notify?.({
        event: 'transcript.deleted',
        transcriptId: row.id,
        workspaceId: row.workspaceId,
        name: row.name,
      });
    }
    deleted += rows.length;
  }
  if (deleted > 0) deps.logger.info({ deleted }, 'transcripts past their plan retention deleted');
  return deleted;
}
