import { and, eq, inArray } from 'drizzle-orm';
import { renderJobs, translationTracks, type RenderJob } from '../../db/schema';
import { UUID_RE } from '../../../common/validators';
import {
  RENDER_MAX_SECONDS,
  RENDER_PREVIEW_SECONDS,
  type RenderRequest,
} from '../../../common/render-options';
import { ExportCode, RenderCode, TranscriptCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import type { Actor } from '../workspaces/actor';
import { workspacePlan } from '../workspaces/plan';
import { transcriptFor } from './access';
import type { RenderDeps } from './deps';
import { renderMinutesUsed } from './quota';
import { backgroundMissing, hasRenderBackground } from './background';

/**
 * Asks for a captioned video of a finished transcript: checks the range, the plan's render
 * minutes and that no other render of it is under way, then queues the job on the render lane.
 * The plan's resolution cap and mark are decided now, with the minutes.
 */
export async function createRender(
  deps: RenderDeps,
  actor: Actor,
  transcriptId: string,
  request: RenderRequest,
): Promise<RenderJob> {
  const { transcript, workspace } = await transcriptFor(deps.db, actor, transcriptId, 'transcript.export');
  if (transcript.status !== 'done') throw new ApiError(ExportCode.NOT_READY, 'errors.exports.notReady');
  if (!transcript.mediaKey) throw new ApiError(TranscriptCode.NO_MEDIA, 'errors.transcripts.noMedia');
  if (request.track !== 'original') {
    // A finished translation track of this transcript.
    const [track] = UUID_RE.test(request.track)
      ? await deps.db
          .select({ id: translationTracks.id })
          .from(translationTracks)
          .where(
            and(
              eq(translationTracks.id, request.track),
              eq(translationTracks.transcriptId, transcript.id),
              eq(translationTracks.status, 'done'),
            ),
          )
      : [];
    if (!track) throw new ApiError(RenderCode.TRACK_NOT_FOUND, 'errors.render.trackNotFound');
  }
  // The picture is the transcript's workspace's (where the render is counted), asked for up front.
  if (request.background_image && !transcript.hasVideo && !(await hasRenderBackground(deps, workspace.id))) {
    throw backgroundMissing();
  }

  const mediaEnd = transcript.durationSec ?? Math.max(0, ...transcript.segments.map((s) => s.end));
  const start = request.start ?? 0;
  // A preview is a few seconds from where the player stood, whatever end was asked for.
  const end = Math.min(
    request.preview ? start + RENDER_PREVIEW_SECONDS : (request.end ?? mediaEnd),
    mediaEnd,
  );
  if (!(end - start > 0.05)) throw new ApiError(RenderCode.BAD_RANGE, 'errors.render.badRange');
  const duration = end - start;
  if (duration > RENDER_MAX_SECONDS) {
    throw new ApiError(RenderCode.TOO_LONG, 'errors.render.tooLong', {
      limit_minutes: RENDER_MAX_SECONDS / 60,
    });
  }

  const plan = await workspacePlan(deps.db, workspace);
  const { limits } = plan;
  const now = deps.now();
  return deps.db
    .transaction(async (tx) => {
      const [busy] = await tx
        .select({ id: renderJobs.id })
        .from(renderJobs)
        .where(
          and(eq(renderJobs.transcriptId, transcript.id), inArray(renderJobs.status, ['queued', 'running'])),
        )
        .limit(1);
      if (busy) throw new ApiError(RenderCode.BUSY, 'errors.render.busy');
      if (limits.render_minutes_per_month !== null) {
        const left = limits.render_minutes_per_month - (await renderMinutesUsed(tx, plan, workspace.id, now));
        if (duration / 60 > left) {
          throw new ApiError(RenderCode.QUOTA_EXCEEDED, 'errors.render.quotaExceeded', {
            minutes_left: Math.max(0, Math.floor(left * 10) / 10),
          });
        }
      }
      const [row] = await tx
        .insert(renderJobs)
        .values({
          workspaceId: workspace.id,
          userId: actor.user.id,
          transcriptId: transcript.id,
          options: { ...request, start, end },
          durationSec: duration,
          maxResolution: limits.render_max_resolution,
          watermark: limits.render_watermark,
          createdAt: now,
        })
        .returning();
      // The job exists if and only if the row does (database queue); BullMQ adds after the commit.
      if (deps.queue.addInTransaction)
        await deps.queue.addInTransaction(tx, 'render-video', { renderId: row!.id }, { key: row!.id });
      return row!;
    })
    .then(async (row) => {
      if (!deps.queue.addInTransaction)
        await deps.queue.add('render-video', { renderId: row.id }, { key: row.id });
      return row;
    });
}
