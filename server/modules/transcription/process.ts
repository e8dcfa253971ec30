import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { normalizeSegments, segmentsToPlainText, type Segment } from '../../../common/segments';
import type { Db } from '../../db/client';
import { transcripts, usageRecords, type Transcript } from '../../db/schema';
import type { Logger } from '../../logger';
import { EngineError, type Engine } from '../engine/types';
import type { TranscriptEvents } from '../jobs/events';
import { JobInterruptedError, RetryableError, type JobContext } from '../jobs/queue';
import { decodeToPcm, PCM_BYTES_PER_SECOND } from '../media/decode';
import { MediaError } from '../media/media-error';
import type { Storage } from '../storage/storage';

export interface PipelineDeps {
  db: Db;
  storage: Storage;
  engine: Engine;
  events: TranscriptEvents;
  ffmpeg: string;
  logger: Logger;
  /** Where decoded audio is written while a job runs. */
  tmpDir?: string;
  /** Minimum time between progress writes to the database. */
  saveIntervalMs?: number;
}

type Outcome = { code: string; detail: string };

/** Maps a failure to the reason shown to the user (errors.media.* / errors.engine.*). */
function reasonOf(err: unknown): Outcome {
  if (err instanceof MediaError || err instanceof EngineError) {
    return { code: err.code, detail: err.message.slice(0, 500) };
  }
  return { code: 'internal', detail: err instanceof Error ? err.message.slice(0, 500) : String(err) };
}

/**
 * One transcription, start to end: decode the stored media to PCM, run the engine, stream
 * progress and segments out, then save the result and charge the minutes in one transaction.
 */
export async function processTranscript(
  deps: PipelineDeps,
  transcriptId: string,
  ctx: JobContext,
): Promise<void> {
  const { db, events } = deps;
  const [row] = await db.select().from(transcripts).where(eq(transcripts.id, transcriptId));
  // Deleted, canceled or already finished (a retried delivery): nothing to do.
  if (!row || row.status === 'done' || row.status === 'canceled') return;

  const processing = and(eq(transcripts.id, transcriptId), eq(transcripts.status, 'processing'));
  const started = await db
    .update(transcripts)
    .set({
      status: 'processing',
      progress: 0,
      segments: [],
      plainText: '',
      errorCode: null,
      errorDetail: null,
      updatedAt: new Date(),
    })
    .where(and(eq(transcripts.id, transcriptId), eq(transcripts.status, row.status)))
    .returning({ id: transcripts.id });
  if (started.length === 0) return;
  events.publish(transcriptId, { type: 'status', status: 'processing', progress: 0 });

  const workDir = await mkdtemp(path.join(deps.tmpDir ?? os.tmpdir(), 'clipscribe-job-'));
  const segments: Segment[] = [];
  const saveEvery = deps.saveIntervalMs ?? 1_000;
  let lastSave = 0;
  let progress = 0;
  let saving: Promise<unknown> = Promise.resolve();

  // Partial results are saved now and then, so a page opened mid-job starts from them.
  const savePartial = (force = false) => {
    const now = Date.now();
    if (!force && now - lastSave < saveEvery) return;
    lastSave = now;
    const snapshot = { progress, segments: [...segments] };
    saving = saving
      .then(() =>
        db
          .update(transcripts)
          .set({ progress: snapshot.progress, segments: snapshot.segments, updatedAt: new Date() })
          .where(processing),
      )
      .catch((err: Error) => deps.logger.warn({ err: err.message }, 'progress save failed'));
  };

  try {
    if (!row.mediaKey) throw new MediaError('not_media', 'This transcript has no media to transcribe');
    const pcmPath = path.join(workDir, 'audio.pcm');
    await deps.storage.withLocalFile(row.mediaKey, (file) =>
      decodeToPcm(deps.ffmpeg, file, pcmPath, ctx.signal),
    );
    const durationSec = (await stat(pcmPath)).size / PCM_BYTES_PER_SECOND;
    if (durationSec < 0.1) throw new MediaError('no_audio', 'The audio track is empty');

    const result = await deps.engine.transcribe(
      { pcmPath, durationSec },
      {
        language: row.language,
        translate: row.translate,
        signal: ctx.signal,
        onProgress(percent) {
          const next = Math.min(99, Math.max(progress, Math.floor(percent)));
          if (next === progress) return;
          progress = next;
          events.publish(transcriptId, { type: 'status', status: 'processing', progress });
          savePartial();
        },
        onSegment(segment) {
          const [clean] = normalizeSegments([segment], row.durationSec ?? durationSec);
          if (!clean) return;
          segments.push(clean);
          events.publish(transcriptId, { type: 'segment', index: segments.length - 1, segment: clean });
          savePartial();
        },
      },
    );
    await saving;
    await finish(deps, row, result.segments, result.language, durationSec);
  } catch (err) {
    await saving;
    if (ctx.signal.aborted) {
      // Canceled by the user (the API already marked it) or handed back at shutdown.
      if (ctx.signal.reason === 'shutdown') {
        await db.update(transcripts).set({ status: 'queued', progress: 0 }).where(processing);
        throw new JobInterruptedError();
      }
      return;
    }
    const transient = (err instanceof EngineError && err.transient) || isTransientIo(err);
    if (transient && ctx.attempt < ctx.maxAttempts) {
      await db.update(transcripts).set({ status: 'queued', progress: 0 }).where(processing);
      events.publish(transcriptId, { type: 'status', status: 'queued', progress: 0 });
      throw new RetryableError(reasonOf(err).detail);
    }
    const reason = reasonOf(err);
    if (reason.code === 'internal') deps.logger.error({ err, transcriptId }, 'transcription failed');
    await db
      .update(transcripts)
      .set({ status: 'failed', errorCode: reason.code, errorDetail: reason.detail, updatedAt: new Date() })
      .where(processing);
    events.publish(transcriptId, {
      type: 'status',
      status: 'failed',
      progress,
      errorCode: reason.code,
    });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

function isTransientIo(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOSPC' || code === 'EMFILE' || code === 'ECONNRESET' || code === 'ETIMEDOUT';
}

/** Saves the result and charges the minutes exactly once (usage is unique per transcript). */
async function finish(
  deps: PipelineDeps,
  row: Transcript,
  raw: Segment[],
  language: string | null,
  decodedSec: number,
) {
  const durationSec = row.durationSec ?? decodedSec;
  const segments = normalizeSegments(raw, durationSec);
  const done = await deps.db.transaction(async (tx) => {
    const updated = await tx
      .update(transcripts)
      .set({
        status: 'done',
        progress: 100,
        segments,
        plainText: segmentsToPlainText(segments),
        detectedLanguage: language,
        engine: deps.engine.name,
        completedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(transcripts.id, row.id), eq(transcripts.status, 'processing')))
      .returning({ id: transcripts.id });
    if (updated.length === 0) return false;
    await tx
      .insert(usageRecords)
      .values({ userId: row.userId, transcriptId: row.id, seconds: durationSec })
      .onConflictDoNothing({ target: usageRecords.transcriptId });
    return true;
  });
  if (done) deps.events.publish(row.id, { type: 'status', status: 'done', progress: 100 });
}
