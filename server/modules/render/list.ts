import { desc, eq } from 'drizzle-orm';
import { renderJobs, transcripts, type RenderJob } from '../../db/schema';
import { RenderCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import type { Actor } from '../workspaces/actor';
import { renderFor, transcriptFor } from './access';
import type { RenderDeps } from './deps';

/** The transcript's renders, newest first (the last 20). */
export async function listRenders(
  deps: RenderDeps,
  actor: Actor,
  transcriptId: string,
): Promise<RenderJob[]> {
  await transcriptFor(deps.db, actor, transcriptId, 'transcript.read');
  return deps.db
    .select()
    .from(renderJobs)
    .where(eq(renderJobs.transcriptId, transcriptId))
    .orderBy(desc(renderJobs.createdAt))
    .limit(20);
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
