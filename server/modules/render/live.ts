import type { RenderJob } from '../../db/schema';
import type { Actor } from '../workspaces/actor';
import { renderFor } from './access';
import type { RenderDeps } from './deps';
import { renderJson } from './payload';

export type RenderEventsSource = (signal: AbortSignal) => AsyncGenerator<{ event: string; data: string }>;

/** How often the row is read while a render waits or runs (the job may run in another process). */
const POLL_MS = 1000;

const live = (r: RenderJob) => r.status === 'queued' || r.status === 'running';

/**
 * A render's progress as it happens: a snapshot, `progress` events while it waits or runs, and
 * a last snapshot when it ends (done with its file, failed with its reason, or canceled). The
 * row is read once a second, so the stream works wherever the render lane runs.
 */
export async function renderEvents(deps: RenderDeps, actor: Actor, id: string): Promise<RenderEventsSource> {
  await renderFor(deps.db, actor, id, 'transcript.read');
  return async function* (signal) {
    let row = await renderFor(deps.db, actor, id, 'transcript.read');
    yield { event: 'snapshot', data: JSON.stringify(renderJson(row)) };
    let last = `${row.status}:${row.progress}`;
    while (!signal.aborted && live(row)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
      if (signal.aborted) return;
      row = await renderFor(deps.db, actor, id, 'transcript.read');
      if (!live(row)) {
        yield { event: 'snapshot', data: JSON.stringify(renderJson(row)) };
        return;
      }
      const now = `${row.status}:${row.progress}`;
      if (now !== last) {
        last = now;
        yield { event: 'progress', data: JSON.stringify({ status: row.status, progress: row.progress }) };
      }
    }
  };
}
