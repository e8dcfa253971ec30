import { and, eq } from 'drizzle-orm';
import { transcripts, translationTracks } from '../../db/schema';
import { translationLanguage } from '../../../common/translation-languages';
import { JobInterruptedError, RetryableError, type JobContext } from '../jobs/queue';
import { LanguageModelError } from '../language-model/types';
import { TranslationError, translateSegments } from './batches';
import type { TranslationDeps } from './deps';
import { glossaryOf } from './glossary';

/** The events of a track's progress (the transcript's event bus, keyed by track). */
export const trackChannel = (trackId: string) => `translation:${trackId}`;

/**
 * The translate-track job: every segment through the language model in batches; texts and
 * progress reach the row about once a second and the event stream at once.
 */
export async function processTrack(deps: TranslationDeps, trackId: string, ctx: JobContext): Promise<void> {
  const [track] = await deps.db
    .update(translationTracks)
    .set({ status: 'running', updatedAt: deps.now() })
    .where(and(eq(translationTracks.id, trackId), eq(translationTracks.status, 'queued')))
    .returning();
  if (!track) return;
  const [transcript] = await deps.db.select().from(transcripts).where(eq(transcripts.id, track.transcriptId));
  const lang = translationLanguage(track.language);
  if (!transcript || !lang) return fail(deps, trackId, 'internal');
  const sources = transcript.segments.map((s) => s.text);
  const texts = sources.map((_, i) => track.texts[i] ?? '');
  const todo = sources.map((_, i) => i).filter((i) => texts[i] === '' && sources[i]!.trim() !== '');
  const total = Math.max(1, todo.length);
  let finished = 0;
  let lastWrite = 0;
  const save = async (force: boolean) => {
    const t = Date.now();
    if (!force && t - lastWrite < 1000) return;
    lastWrite = t;
    await deps.db
      .update(translationTracks)
      .set({
        texts: [...texts],
        progress: Math.min(99, Math.floor((finished / total) * 100)),
        updatedAt: deps.now(),
      })
      .where(and(eq(translationTracks.id, trackId), eq(translationTracks.status, 'running')));
  };
  try {
    await translateSegments(deps.model, {
      texts: sources,
      indices: todo,
      target: { name: lang.name, code: lang.code },
      glossary: await glossaryOf(deps.db, track.workspaceId),
      signal: ctx.signal,
      onSegment: async (i, text) => {
        texts[i] = text;
        finished++;
        deps.events.publish(trackChannel(trackId), {
          type: 'translation',
          index: i,
          text,
          progress: Math.floor((finished / total) * 100),
        });
        await save(false);
      },
    });
  } catch (err) {
    if (ctx.signal.aborted) {
      await save(true);
      if (ctx.signal.reason === 'shutdown') {
        await deps.db
          .update(translationTracks)
          .set({ status: 'queued' })
          .where(eq(translationTracks.id, trackId));
        throw new JobInterruptedError();
      }
      return;
    }
    if (err instanceof TranslationError && err.transient && ctx.attempt < ctx.maxAttempts) {
      await save(true);
      await deps.db
        .update(translationTracks)
        .set({ status: 'queued' })
        .where(eq(translationTracks.id, trackId));
      throw new RetryableError(err.message);
    }
    deps.logger.warn({ trackId, err: (err as Error).message }, 'translation failed');
    await save(true);
    const reason =
      err instanceof TranslationError ? err.reason : err instanceof LanguageModelError ? 'model' : 'internal';
    return fail(deps, trackId, reason);
  }
  const [done] = await deps.db
    .update(translationTracks)
    .set({
      status: 'done',
      texts,
      progress: 100,
      model: deps.model.model,
      completedAt: deps.now(),
      updatedAt: deps.now(),
    })
    .where(and(eq(translationTracks.id, trackId), eq(translationTracks.status, 'running')))
    .returning();
  if (done) {
    deps.events.publish(trackChannel(trackId), { type: 'translation', progress: 100, status: 'done' });
    await deps.notify?.(trackId);
  }
}

async function fail(deps: TranslationDeps, trackId: string, reason: string) {
  await deps.db
    .update(translationTracks)
    .set({ status: 'failed', errorCode: reason, updatedAt: deps.now() })
    .where(eq(translationTracks.id, trackId));
  deps.events.publish(trackChannel(trackId), { type: 'translation', progress: 0, status: 'failed' });
}
