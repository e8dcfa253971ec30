import { desc, eq } from 'drizzle-orm';
import { renderJobs, transcripts, type RenderJob } from '../../db/schema';
import { RenderCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import type { Actor } from '../workspaces/actor';
import { renderFor, transcriptFor } from './access';
import type { RenderDeps } from './deps';
import { renderQuota, type RenderQuota } from './quota';
import { workspacePlan } from '../workspaces/plan';

/** The transcript's renders, newest first (the last 20), and what the workspace's plan leaves. */
export async function listRenders(
  deps: RenderDeps,
  actor: Actor,
  transcriptId: string,
): Promise<{ rows: RenderJob[]; quota: RenderQuota }> {
  const { workspace } = await transcriptFor(deps.db, actor, transcriptId, 'transcript.read');
  const rows = await deps.db
    .select()
    .from(renderJobs)
    .where(eq(renderJobs.transcriptId, transcriptId))
    .orderBy(desc(renderJobs.createdAt))
    .limit(20);
  const plan = await workspacePlan(deps.db, workspace);
  return { rows, quota: await renderQuota(deps.db, workspace.id, plan, deps.now()) };
}

/** A finished render's file and the name to download it under (the transcript's, .mp4). */
export async function renderFile(
  deps: RenderDeps,
  actor: Actor,
  id: string,
): Promise<{ key: string; filename: string }> {
  const row = await renderFor(deps.db, actor, id, 'transcript.export');
  if (row.status !== 'done' || !row.outputKey)
    throw new ApiError(RenderCode.NOT_DONE, 'errors.render.notDone');
  const [t] = await deps.db
    .select({ name: transcripts.name })
    .from(transcripts)
    .where(eq(transcripts.id, row.transcriptId));
  return { key: row.outputKey, filename: `${t?.name ?? 'video'}.mp4` };
}
