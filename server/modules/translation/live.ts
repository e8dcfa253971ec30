import type { TranscriptEvent } from '../jobs/events';
import { followChannel } from '../jobs/channel-follower';
import type { Actor } from '../workspaces/actor';
import { trackFor } from './access';
import type { TranslationDeps } from './deps';
import { trackJson } from './payload';
import { trackChannel } from './process';
import { pendingOf } from './retranslate';

const isTranslationEvent = (e: TranscriptEvent): e is Extract<TranscriptEvent, { type: 'translation' }> =>
  e.type === 'translation';

export type TranslationEventsSource = (
  signal: AbortSignal,
) => AsyncGenerator<{ event: string; data: string }>;

/**
 * A track's live progress: a snapshot, then `segment` events (index, text, progress) and a last
 * snapshot when it ends. A finished track with segments being translated again stays open until
 * they are back: a `retranslated` event each (index, and the saved text and revision, or null
 * when it could not be translated). Snapshots name the pending segments (`retranslating`).
 * Access is checked before the stream starts.
 */
export async function trackEvents(
  deps: TranslationDeps,
  actor: Actor,
  id: string,
): Promise<TranslationEventsSource> {
  await trackFor(deps.db, actor, id, 'transcript.read');
  return async function* (signal) {
    const follower = followChannel(deps.events, trackChannel(id), isTranslationEvent, signal);
    try {
      let track = await trackFor(deps.db, actor, id, 'transcript.read');
      let pending = new Set(await pendingOf(deps.queue, id));
      const snapshot = () => ({
        event: 'snapshot',
        data: JSON.stringify({ ...trackJson(track), retranslating: [...pending].sort((a, b) => a - b) }),
      });
      const busy = () => track.status === 'queued' || track.status === 'running';
      yield snapshot();
      while (busy() || pending.size > 0) {
        const batch = await follower.next(15_000);
        if (batch === null) return;
        // Quiet, or the track ended: look at the row (and at the queue: a job may have ended
        // in another process without a word reaching us).
        const quiet = batch.length === 0;
        let ended = quiet;
        for (const e of batch) {
          if (e.retranslated !== undefined && e.index !== undefined) {
            pending.delete(e.index);
            yield {
              event: 'retranslated',
              data: JSON.stringify({
                index: e.index,
                text: e.retranslated?.text ?? null,
                revision: e.retranslated?.revision ?? null,
              }),
            };
            ended ||= pending.size === 0 && !busy();
          } else if (e.status) ended = true;
          else
            yield {
              event: 'segment',
              data: JSON.stringify({ index: e.index, text: e.text, progress: e.progress }),
            };
        }
        if (ended) {
          const wasBusy = busy();
          track = await trackFor(deps.db, actor, id, 'transcript.read');
          if (quiet) pending = new Set(await pendingOf(deps.queue, id));
          if (!busy() && (wasBusy || pending.size === 0)) yield snapshot();
        }
      }
    } finally {
      follower.close();
    }
  };
}
