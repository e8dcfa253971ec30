// The live side of a transcript's AI outputs, as server-sent events: a snapshot, then progress
// and generated text from the transcript's event channel (in process, or Redis pub/sub when the
// language lane runs in a worker), until no output is queued or running.
import type { InsightEvent } from '../../../common/insights';
import type { TranscriptEvent } from '../jobs/events';
import { followChannel } from '../jobs/channel-follower';
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

const isInsightEvent = (e: TranscriptEvent): e is InsightEvent =>
  e.type === 'insight' || e.type === 'insight-token';

/** A quiet stream looks at the rows this often: an event missed on the way never leaves it open. */
const CHECK_MS = 15_000;

export async function* insightEvents(
  deps: Pick<InsightDeps, 'db' | 'now' | 'events'>,
  actor: Actor,
  transcriptId: string,
  first: TranscriptInsightsJson,
  signal: AbortSignal,
): AsyncGenerator<InsightMessage> {
  const follower = followChannel(deps.events, transcriptId, isInsightEvent, signal);
  // Text written before this stream listened comes again, once, as a piece at 0.
  if (busy(first)) askForResend(deps.events, transcriptId);
  const snapshot = async () => {
    const now = await transcriptInsights(deps, actor, transcriptId).catch(() => null);
    return { now, message: now && { event: 'snapshot' as const, data: JSON.stringify(now) } };
  };
  try {
    yield { event: 'snapshot', data: JSON.stringify(first) };
    if (!busy(first)) return;
    for (;;) {
      const batch = await follower.next(CHECK_MS);
      if (batch === null) return;
      if (batch.length === 0) {
        const { now, message } = await snapshot();
        if (!now || !busy(now)) {
          if (message) yield message;
          return;
        }
        yield { event: 'ping', data: '{}' };
        continue;
      }
      for (const event of batch) {
        if (event.type === 'insight-token') {
          yield { event: 'token', data: JSON.stringify(event) };
          continue;
        }
        yield { event: 'insight', data: JSON.stringify(event) };
        if (event.status === 'done' || event.status === 'failed') {
          const { now, message } = await snapshot();
          if (message) yield message;
          if (!now || !busy(now)) return;
        }
      }
    }
  } finally {
    follower.close();
  }
}
