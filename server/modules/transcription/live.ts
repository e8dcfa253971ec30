import type { User } from '../../db/schema';
import type { TranscriptEvent } from '../jobs/events';
import type { TranscriptionDeps } from './deps';
import { transcriptJson } from './payload';
import { ownTranscript } from './ownership';
import { queuePosition } from './queue-position';

/** One server-sent event: its name and JSON data. */
export interface LiveMessage {
  event: 'snapshot' | 'status' | 'segment' | 'ping';
  data: string;
}

const TERMINAL = new Set(['done', 'failed', 'canceled']);

/**
 * A transcript's live progress as event-stream messages: a snapshot first, then status and
 * segment events until the job ends (a final snapshot) or `signal` aborts. The caller has
 * checked that the transcript is the user's.
 */
export async function* liveEvents(
  d: TranscriptionDeps,
  user: User,
  id: string,
  signal: AbortSignal,
): AsyncGenerator<LiveMessage> {
  const pending: TranscriptEvent[] = [];
  let wake: (() => void) | null = null;
  let closed = false;
  const unsubscribe = d.events.subscribe(id, (event) => {
    pending.push(event);
    wake?.();
  });
  const onAbort = () => {
    closed = true;
    wake?.();
  };
  signal.addEventListener('abort', onAbort);
  if (signal.aborted) closed = true;
  try {
    const snapshot = await ownTranscript(d, user, id);
    let sent = snapshot.segments.length;
    let status = snapshot.status;
    let position = await queuePosition(d, snapshot);
    let quiet = 0;
    yield {
      event: 'snapshot',
      data: JSON.stringify(transcriptJson(snapshot, { queuePosition: position })),
    };
    if (TERMINAL.has(snapshot.status)) return;
    while (!closed) {
      if (pending.length === 0) {
        // While the job waits, the files ahead of it finish: tell the page every few seconds.
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, status === 'queued' ? 3_000 : 15_000);
        });
        wake = null;
        if (pending.length > 0 || closed) continue;
        if (status === 'queued') {
          const row = await ownTranscript(d, user, id).catch(() => null);
          const next = row ? await queuePosition(d, row) : null;
          if (row?.status === 'queued' && next !== position) {
            position = next;
            yield {
              event: 'status',
              data: JSON.stringify({
                type: 'status',
                status: 'queued',
                progress: row.progress,
                stage: row.stage,
                queuePosition: next,
              }),
            };
            continue;
          }
        }
        if (status !== 'queued' || ++quiet % 5 === 0) yield { event: 'ping', data: '{}' };
        continue;
      }
      const event = pending.shift()!;
      if (event.type === 'segment') {
        if (event.index < sent) continue;
        sent = event.index + 1;
        yield { event: 'segment', data: JSON.stringify(event) };
      } else if (event.type === 'status') {
        if (TERMINAL.has(event.status)) {
          const final = await ownTranscript(d, user, id).catch(() => null);
          if (final) yield { event: 'snapshot', data: JSON.stringify(transcriptJson(final)) };
          return;
        }
        status = event.status;
        yield { event: 'status', data: JSON.stringify(event) };
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    unsubscribe();
  }
}
