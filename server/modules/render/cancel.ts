import { and, eq, inArray } from 'drizzle-orm';
import { renderJobs, type RenderJob } from '../../db/schema';
import { RenderCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import type { Actor } from '../workspaces/actor';
import { renderFor } from './access';
import type { RenderDeps } from './deps';

/** Stops a waiting or running render: the job is dropped, or its ffmpeg killed. */
export async function cancelRender(deps: RenderDeps, actor: Actor, id: string): Promise<RenderJob> {
  await renderFor(deps.db, actor, id, 'transcript.export');
  const [row] = await deps.db
    .update(renderJobs)
    .set({ status: 'canceled', finishedAt: deps.now() })
    .where(and(eq(renderJobs.id, id), inArray(renderJobs.status, ['queued', 'running'])))
    .returning();
  if (!row) throw new ApiError(RenderCode.NOT_CANCELABLE, 'errors.render.notCancelable');
  await deps.queue.cancel('render-video', id);
  return row;
}
