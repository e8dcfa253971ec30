// The live side of a transcript's AI outputs, as server-sent events: a snapshot, then progress
// and generated text from the transcript's event channel (in process, or Redis pub/sub when the
// language lane runs in a worker), until no output is queued or running.
import type { InsightEvent } from '../../../common/insights';
import type { TranscriptEvent } from '../jobs/events';
import { askForResend } from '../jobs/streamed-writer';
import type { Actor } from '../workspaces/actor';
import type { InsightDeps } from './deps';
import { transcriptInsights, type TranscriptInsightsJson } from './read';

export interface InsightMessage {
  event: 'snapshot' | 'insight' | 'token' | 'ping';
  data: string;
}

const busy = (s: TranscriptInsightsJson) =>
  [s.summary, s.chapters, ...s.templates].some((i) => i && (i.status === 'queued' || i.status === 'running'));

/** A quiet stream looks at the rows this often: an event missed on the way never leaves it open. */
const CHECK_MS = 15_000;

export async function* insightEvents(
  deps: Pick<InsightDeps, 'db' | 'now' | 'events'>,
  actor: Actor,
  transcriptId: string,
  first: TranscriptInsightsJson,
  signal: AbortSignal,
): AsyncGenerator<InsightMessage> {
  const pending: InsightEvent[] = [];
  let wake: (() => void) | null = null;
  let closed = signal.aborted;
  const unsubscribe = deps.events.subscribe(transcriptId, (event: TranscriptEvent) => {
    if (event.type !== 'insight' && event.type !== 'insight-token') return;
    pending.push(event);
    wake?.();
  });
  // Text written before this stream listened comes again, once, as a piece at 0.
  if (busy(first)) askForResend(deps.events, transcriptId);
  const onAbort = () => {
    closed = true;
    wake?.();
  };
  signal.addEventListener('abort', onAbort);
  try {
    yield { event: 'snapshot', data: JSON.stringify(first) };
    if (!busy(first)) return;
    while (!closed) {
      if (pending.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, CHECK_MS);
        });
        wake = null;
        if (closed) return;
        if (pending.length === 0) {
          const now = await transcriptInsights(deps, actor, transcriptId).catch(() => null);
          if (!now || !busy(now)) {
            if (now) yield { event: 'snapshot', data: JSON.stringify(now) };
            return;
          }
          yield { event: 'ping', data: '{}' };
        }
        continue;
      }
      const event = pending.shift()!;
      if (event.type === 'insight-token') {
        yield { event: 'token', data: JSON.stringify(event) };
        continue;
      }
      yield { event: 'insight', data: JSON.stringify(event) };
      if (event.status === 'done' || event.status === 'failed') {
        const now = await transcriptInsights(deps, actor, transcriptId).catch(() => null);
        if (now) yield { event: 'snapshot', data: JSON.stringify(now) };
        if (!now || !busy(now)) return;
      }
    }
  } finally {
    unsubscribe();
    signal.removeEventListener('abort', onAbort);
  }
}
