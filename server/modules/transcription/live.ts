import type { Actor } from '../workspaces/actor';
import type { TranscriptEvent } from '../jobs/events';
import { followChannel } from '../jobs/channel-follower';
import type { TranscriptionDeps } from './deps';
import { transcriptJson } from './payload';
import { ownTranscript, ownTranscriptSummary } from './ownership';
import { sharedRow } from './shared-row';
import { ApiError } from '../errors';
import { isMember } from '../workspaces/access';
import { queuePosition } from './queue-position';

/** One server-sent event: its name and JSON data. */
export interface LiveMessage {
  event: 'snapshot' | 'status' | 'segment' | 'ping';
  data: string;
  /** How long an EventSource waits before it opens the stream again (ms). */
  retry?: number;
}

/**
 * After the end there is nothing more to follow: an EventSource that opens the stream again (it
 * does so on its own once a stream ends) waits this long, so a crowd watching a job that ends does
 * not come back every few seconds.
 */
export const FINISHED_RETRY_MS = 60_000;

/** The actor no longer reaches the transcript (removed, or it was deleted): the stream ends. */
const GONE = Symbol('gone');
const gone = (err: unknown): typeof GONE | null => (err instanceof ApiError ? GONE : null);

const TERMINAL = new Set(['done', 'failed', 'canceled']);
type LiveEvent = Extract<TranscriptEvent, { type: 'status' | 'segment' }>;
const isLiveEvent = (e: TranscriptEvent): e is LiveEvent => e.type === 'status' || e.type === 'segment';
/** A run whose row has not been touched for this long (its heartbeat is every 10 s) has died. */
const STALLED_AFTER_MS = 35_000;
/** How often a stream busy with events looks again whether its watcher is still a member. */
const RECHECK_MS = 5_000;

/**
 * A transcript's live progress as event-stream messages: a snapshot first, then status and
 * segment events until the job ends (a final snapshot with the segments) or `signal` aborts. On
 * a transcript already finished the snapshot is the only message and carries no segments. Final
 * snapshots carry a retry hint (FINISHED_RETRY_MS). The caller has
 * checked that the actor reaches the transcript; every look at the row checks it again, so a
 * member removed while watching loses the stream at its next look (within 15 s).
 */
export async function* liveEvents(
  d: TranscriptionDeps,
  actor: Actor,
  id: string,
  signal: AbortSignal,
): AsyncGenerator<LiveMessage> {
  // Already finished: its state from the row's small columns (no segments: the page reads the
  // transcript itself), the retry hint, and the end. A reconnect storm on a finished transcript
  // (every watcher's EventSource opening again) then costs one small row read per open.
  const head = await ownTranscriptSummary(d, actor, id);
  if (TERMINAL.has(head.status)) {
    yield { event: 'snapshot', data: JSON.stringify(transcriptJson(head)), retry: FINISHED_RETRY_MS };
    return;
  }
  const follower = followChannel(d.events, id, isLiveEvent, signal);
  try {
    const snapshot = await ownTranscript(d, actor, id);
    let checkedAt = Date.now();
    let sent = snapshot.segments.length;
    let status = snapshot.status;
    let position = await queuePosition(d, snapshot);
    let quiet = 0;
    let stalled = false;
    yield {
      event: 'snapshot',
      data: JSON.stringify(transcriptJson(snapshot, { queuePosition: position })),
    };
    if (TERMINAL.has(snapshot.status)) return;
    for (;;) {
      // While the job waits, the files ahead of it finish: tell the page every few seconds.
      const batch = await follower.next(status === 'queued' ? 3_000 : 15_000);
      if (batch === null) return;
      if (batch.length === 0) {
        // Quiet: look at the row itself. An event lost on the way (a web process that missed
        // it, pub/sub away) must not leave the page behind, nor a run whose process died leave it
        // frozen: its heartbeat stops, and the page shows it waiting to run again.
        const row = await ownTranscript(d, actor, id).catch(gone);
        if (row === GONE) return;
        checkedAt = Date.now();
        if (row && TERMINAL.has(row.status)) {
          yield { event: 'snapshot', data: JSON.stringify(transcriptJson(row)), retry: FINISHED_RETRY_MS };
          return;
        }
        if (
          row?.status === 'processing' &&
          !stalled &&
          Date.now() - row.updatedAt.getTime() > STALLED_AFTER_MS
        ) {
          stalled = true;
          status = 'queued';
          yield {
            event: 'status',
            data: JSON.stringify({ type: 'status', status: 'queued', progress: 0, stage: null }),
          };
          continue;
        }
        if (status === 'queued') {
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
      // A busy run never goes quiet: its events check the membership too, every few seconds.
      if (Date.now() - checkedAt > RECHECK_MS) {
        if (!(await isMember(d.db, actor, snapshot.workspaceId))) return;
        checkedAt = Date.now();
      }
      for (const event of batch) {
        if (event.type === 'segment') {
          if (event.index < sent) continue;
          sent = event.index + 1;
          yield { event: 'segment', data: JSON.stringify(event) };
        } else {
          if (TERMINAL.has(event.status)) {
            // Every watcher gets the final transcript at the same moment: one read of the whole
            // row serves them all (each still checks that it reaches it).
            const reached = await ownTranscriptSummary(d, actor, id).catch(gone);
            if (reached === GONE) return;
            const final = await sharedRow(d, id);
            if (final)
              yield { event: 'snapshot', data: JSON.stringify(transcriptJson(final)), retry: FINISHED_RETRY_MS };
            return;
          }
          status = event.status;
          if (status === 'processing') stalled = false;
          yield { event: 'status', data: JSON.stringify(event) };
        }
      }
    }
  } finally {
    follower.close();
  }
}
