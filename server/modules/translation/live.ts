import type { TranscriptEvent } from '../jobs/events';
import { followChannel } from '../jobs/channel-follower';
import type { Actor } from '../workspaces/actor';
import { trackFor } from './access';
import type { TranslationDeps } from './deps';
import { trackJson } from './payload';
import { trackChannel } from './process';

const isTranslationEvent = (e: TranscriptEvent): e is Extract<TranscriptEvent, { type: 'translation' }> =>
  e.type === 'translation';

export type TranslationEventsSource = (
  signal: AbortSignal,
) => AsyncGenerator<{ event: string; data: string }>;

/**
 * A track's live progress: a snapshot, then `segment` events (index, text, progress) and a last
 * snapshot when it ends. Access is checked before the stream starts.
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
      yield { event: 'snapshot', data: JSON.stringify(trackJson(track)) };
      while (track.status === 'queued' || track.status === 'running') {
        const batch = await follower.next(15_000);
        if (batch === null) return;
        // Quiet, or the track ended: look at the row.
        let ended = batch.length === 0;
        for (const e of batch) {
          if (e.status) ended = true;
          else
            yield {
              event: 'segment',
              data: JSON.stringify({ index: e.index, text: e.text, progress: e.progress }),
            };
        }
        if (ended) {
          track = await trackFor(deps.db, actor, id, 'transcript.read');
          if (track.status !== 'queued' && track.status !== 'running')
            yield { event: 'snapshot', data: JSON.stringify(trackJson(track)) };
        }
      }
    } finally {
      follower.close();
    }
  };
}
