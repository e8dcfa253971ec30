import type { TranscriptEvent } from '../jobs/events';
import type { Actor } from '../workspaces/actor';
import { trackFor } from './access';
import type { TranslationDeps } from './deps';
import { trackJson } from './payload';
import { trackChannel } from './process';

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
    const pending: TranscriptEvent[] = [];
    let wake: (() => void) | null = null;
    const unsubscribe = deps.events.subscribe(trackChannel(id), (e) => {
      pending.push(e);
      wake?.();
    });
    const onAbort = () => wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      let track = await trackFor(deps.db, actor, id, 'transcript.read');
      yield { event: 'snapshot', data: JSON.stringify(trackJson(track)) };
      while (!signal.aborted && (track.status === 'queued' || track.status === 'running')) {
        if (!pending.length) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, 15_000);
          });
          wake = null;
        }
        let ended = pending.length === 0;
        for (const e of pending.splice(0)) {
          if (e.type !== 'translation') continue;
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
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
    }
  };
}
