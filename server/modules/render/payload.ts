import type { RenderJob } from '../../db/schema';
import type { RenderRequest } from '../../../common/render-options';
import type { RenderStatus } from '../../../common/record-states';

/** A render as the API and the page show it. */
export interface RenderJson {
  id: string;
  transcript_id: string;
  status: RenderStatus;
  progress: number;
  options: RenderRequest;
  /** A few seconds to see the style (options.preview). */
  preview: boolean;
  duration_sec: number;
  width: number | null;
  height: number | null;
  watermark: boolean;
  size: number | null;
  /** errors.render.reasons.<reason> when it failed. */
  error: string | null;
  /** Where the MP4 is (add ?download=1 for an attachment); null until done. */
  file_url: string | null;
  created_at: string;
  finished_at: string | null;
}

export function renderJson(r: RenderJob): RenderJson {
  return {
    id: r.id,
    transcript_id: r.transcriptId,
    status: r.status,
    progress: r.progress,
    options: r.options,
    preview: r.options.preview === true,
    duration_sec: r.durationSec,
    width: r.width,
    height: r.height,
    watermark: r.watermark,
    size: r.outputSize,
    error: r.errorCode,
    file_url: r.status === 'done' && r.outputKey ? `/self-api/v1/renders/${r.id}/file` : null,
    created_at: r.createdAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
  };
}
