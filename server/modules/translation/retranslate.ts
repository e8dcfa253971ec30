import { and, eq } from 'drizzle-orm';
import { transcripts, translationTracks, type TranslationTrack } from '../../db/schema';
import { TranslationCode } from '../../../common/error-codes';
import { translationLanguage } from '../../../common/translation-languages';
import { RetryableError, type JobContext, type JobQueue } from '../jobs/queue';
import { ApiError } from '../errors';
import type { Actor } from '../workspaces/actor';
import { trackFor } from './access';
import { TranslationError, translateSegments } from './batches';
import type { TranslationDeps } from './deps';
import { glossaryOf } from './glossary';
import { trackChannel } from './process';

// "Translate again" for one segment: a job on the language lane, not a wait inside the request
// (a local model takes up to two minutes). The segment is pending while its job waits or runs
// (the queue's live keys say which, so a reload still shows it); the new text reaches the page
// through the track's event stream and is saved as an edit on the newest revision.

const JOB = 'retranslate-segment';
const jobKey = (trackId: string, index: number) => `${trackId}:${index}`;
/** How often the job tries to save over a revision that moved under it. */
const SAVE_TRIES = 5;

/** The segments of each track whose translation is asked again (waiting or running jobs). */
export async function pendingRetranslations(queue: JobQueue): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const key of await queue.liveKeys(JOB)) {
    const [trackId, index] = key.split(':');
    if (!trackId || index === undefined) continue;
    out.set(
      trackId,
      [...(out.get(trackId) ?? []), Number(index)].sort((a, b) => a - b),
    );
  }
  return out;
}

export async function pendingOf(queue: JobQueue, trackId: string): Promise<number[]> {
  return (await pendingRetranslations(queue)).get(trackId) ?? [];
}

/**
 * Asks for one segment to be translated again (editors and up, a finished track, a segment it
 * has): queued once per segment; answers the track and the segments now pending.
 */
export async function requestRetranslation(
  deps: TranslationDeps,
  actor: Actor,
  id: string,
  index: number,
): Promise<{ track: TranslationTrack; pending: number[] }> {
  const track = await trackFor(deps.db, actor, id, 'transcript.edit');
  if (track.status !== 'done') throw new ApiError(TranslationCode.NOT_READY, 'errors.translation.notReady');
  const [transcript] = await deps.db
    .select({ segments: transcripts.segments })
    .from(transcripts)
    .where(eq(transcripts.id, track.transcriptId));
  if (index >= (transcript?.segments.length ?? 0) || index >= track.texts.length) {
    throw new ApiError(TranslationCode.BAD_SEGMENT, 'errors.translation.badSegment');
  }
  await deps.queue.add(JOB, { trackId: id, index }, { key: jobKey(id, index), once: true });
  return { track, pending: await pendingOf(deps.queue, id) };
}

/**
 * The retranslate-segment job: the model's new text for one segment (from the current original,
 * with its neighbours as context), saved as an edit and sent to the track's listeners.
 */
export async function processRetranslation(
  deps: TranslationDeps,
  job: { trackId: string; index: number },
  ctx: JobContext,
): Promise<void> {
  const { trackId, index } = job;
  const [track] = await deps.db.select().from(translationTracks).where(eq(translationTracks.id, trackId));
  const [transcript] = track
    ? await deps.db.select().from(transcripts).where(eq(transcripts.id, track.transcriptId))
    : [];
  const lang = track ? translationLanguage(track.language) : null;
  const sources = transcript?.segments.map((s) => s.text) ?? [];
  if (!track || !lang || track.status !== 'done' || index >= sources.length)
    return told(deps, trackId, index);
  let text: string;
  try {
    const out = await translateSegments(deps.model, {
      texts: sources,
      indices: [index],
      target: { name: lang.name, code: lang.code },
      glossary: await glossaryOf(deps.db, track.workspaceId),
      signal: ctx.signal,
    });
    text = out.get(index) ?? track.texts[index] ?? '';
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    if (err instanceof TranslationError && err.transient && ctx.attempt < ctx.maxAttempts) {
      throw new RetryableError(err.message);
    }
    deps.logger.warn({ trackId, index, err: (err as Error).message }, 'translating a segment again failed');
    return told(deps, trackId, index);
  }
  // Saved on whatever revision is newest: edits of other segments made meanwhile are kept.
  for (let i = 0; i < SAVE_TRIES; i++) {
    const [now] = await deps.db.select().from(translationTracks).where(eq(translationTracks.id, trackId));
    if (!now || now.status !== 'done') return told(deps, trackId, index);
    const texts = [...now.texts];
    texts[index] = text.replace(/\s+/g, ' ').trim();
    const [saved] = await deps.db
      .update(translationTracks)
      .set({ texts, revision: now.revision + 1, updatedAt: deps.now() })
      .where(and(eq(translationTracks.id, trackId), eq(translationTracks.revision, now.revision)))
      .returning();
    if (saved) return told(deps, trackId, index, { text: texts[index]!, revision: saved.revision });
  }
  return told(deps, trackId, index);
}

/** Tells the track's listeners the segment is no longer pending: its new text, or unchanged. */
function told(
  deps: TranslationDeps,
  trackId: string,
  index: number,
  result?: { text: string; revision: number },
): void {
  deps.events.publish(trackChannel(trackId), {
    type: 'translation',
    progress: 100,
    index,
    retranslated: result ?? null,
  });
}
