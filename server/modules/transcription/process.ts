import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { createRepetitionGuard } from '../../../common/repetition';
import { segmentsToPlainText, type Segment } from '../../../common/segments';
import type { SpeechRegion, TranscriptStage } from '../../../common/transcript-types';
import type { Db } from '../../db/client';
import { transcripts, usageRecords, users, type Transcript } from '../../db/schema';
import {
  createSpeakerLabeler,
  usedSpeakers,
  type SpeakerLabeler,
  type SpeakerTurn,
} from '../../../common/speakers';
import { speakersFromTurns } from '../speakers/from-turns';
import type { Logger } from '../../logger';
import { EngineError, type Engine } from '../engine/types';
import type { TranscriptEvents } from '../jobs/events';
import { JobInterruptedError, RetryableError, type JobContext } from '../jobs/queue';
import { decodeToPcm, PCM_BYTES_PER_SECOND } from '../media/decode';
import { MediaError } from '../media/media-error';
import { isDependencyOutage } from '../../outage';
import type { SpeakerNote } from '../../../common/record-states';
import { FRESH_RUN } from './fresh-run';
import { jobPercent } from './job-progress';
import type { Storage } from '../storage/storage';
import type { TranscriptionDeps } from './deps';

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
  /** Told when a transcript ends (webhooks); never throws. */
  notify?: TranscriptionDeps['notify'];
}

type Outcome = { code: string; detail: string };

/** How often a running transcription touches its row (updatedAt). */
export const HEARTBEAT_MS = 10_000;

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

  // The engine may still be getting ready (its model downloading): the job waits here, queued,
  // and the user sees the download's progress. The one readiness check of the run.
  const waiting = and(eq(transcripts.id, transcriptId), eq(transcripts.status, 'queued'));
  let shown = -1;
  let lastWrite = 0;
  const show = (percent: number) => {
    const p = Math.floor(percent);
    if (p === shown) return;
    shown = p;
    events.publish(transcriptId, { type: 'status', status: 'queued', progress: p, stage: 'engine' });
    if (Date.now() - lastWrite < (deps.saveIntervalMs ?? 1_000)) return;
    lastWrite = Date.now();
    void db
      .update(transcripts)
      .set({ stage: 'engine', progress: p })
      .where(waiting)
      .catch((err: Error) => deps.logger.warn({ err: err.message }, 'progress save failed'));
  };
  if (deps.engine.ready) {
    try {
      await deps.engine.ready({
        signal: ctx.signal,
        onProgress: show,
        language: row.language,
        engine: row.engineChoice,
        translate: row.translate,
      });
    } catch (err) {
      return fail(deps, transcriptId, ctx, err, 0, 'queued');
    }
  }
  // Speakers asked for: their models too, waited for only while they download. Without them the
  // transcript comes without speakers and says why (speaker_note), instead of failing.
  let withSpeakers = row.detectSpeakers;
  let speakerNote: SpeakerNote | null = null;
  if (withSpeakers && deps.engine.speakersReady) {
    try {
      await deps.engine.speakersReady({ signal: ctx.signal, onProgress: show });
    } catch (err) {
      if (ctx.signal.aborted || !(err instanceof EngineError) || err.code === 'canceled')
        return fail(deps, transcriptId, ctx, err, 0, 'queued');
      deps.logger.warn({ transcriptId, code: err.code }, `speakers not identified: ${err.message}`);
      withSpeakers = false;
      speakerNote = 'unavailable';
    }
  }

  const processing = and(eq(transcripts.id, transcriptId), eq(transcripts.status, 'processing'));
  const started = await db
    .update(transcripts)
    .set({
      ...FRESH_RUN,
      status: 'processing',
      stage: 'preparing',
      updatedAt: new Date(),
    })
    .where(and(eq(transcripts.id, transcriptId), eq(transcripts.status, row.status)))
    .returning({ id: transcripts.id });
  if (started.length === 0) return;
  events.publish(transcriptId, { type: 'status', status: 'processing', progress: 0, stage: 'preparing' });

  const workDir = await mkdtemp(path.join(deps.tmpDir ?? os.tmpdir(), 'clipscribe-job-'));
  const segments: Segment[] = [];
  // Speakers an engine labels (a diarizing API's 'A', 'B') are named in the owner's language.
  const [owner] = row.userId
    ? await db.select({ language: users.language }).from(users).where(eq(users.id, row.userId))
    : [];
  const locale = owner?.language ?? 'en';
  const labeler = createSpeakerLabeler(locale);
  const saveEvery = deps.saveIntervalMs ?? 1_000;
  const guard = createRepetitionGuard();
  let lastSave = 0;
  let progress = 0;
  let stage: TranscriptStage = 'preparing';
  let remainingSec: number | null = null;
  let saving: Promise<unknown> = Promise.resolve();

  // Partial results are saved now and then, so a page opened mid-job starts from them.
  const savePartial = (force = false) => {
    const now = Date.now();
    if (!force && now - lastSave < saveEvery) return;
    lastSave = now;
    const snapshot = { progress, stage, remainingSec, segments: [...segments] };
    saving = saving
      .then(() =>
        db
          .update(transcripts)
          .set({
            progress: snapshot.progress,
            stage: snapshot.stage,
            remainingSec: snapshot.remainingSec,
            segments: snapshot.segments,
            updatedAt: new Date(),
          })
          .where(processing),
      )
      .catch((err: Error) => deps.logger.warn({ err: err.message }, 'progress save failed'));
  };
  const publishStatus = () =>
    events.publish(transcriptId, { type: 'status', status: 'processing', progress, stage, remainingSec });
  // A sign of life even while a long chunk decodes without news: the page (live.ts) and the
  // recovery sweep tell a run whose process died from a slow one by it.
  const heartbeat = setInterval(() => {
    db.update(transcripts)
      .set({ updatedAt: new Date() })
      .where(processing)
      .catch(() => undefined);
  }, HEARTBEAT_MS);

  try {
    if (!row.mediaKey) throw new MediaError('not_media', 'This transcript has no media to transcribe');
    const pcmPath = path.join(workDir, 'audio.pcm');
    await deps.storage.withLocalFile(row.mediaKey, (file) =>
      decodeToPcm(deps.ffmpeg, file, pcmPath, ctx.signal),
    );
    const decodedSec = (await stat(pcmPath)).size / PCM_BYTES_PER_SECOND;
    if (decodedSec < 0.1) throw new MediaError('no_audio', 'The audio track is empty');
    // Times never pass the media's probed duration (nor the decoded audio's end).
    const durationSec = Math.min(decodedSec, row.durationSec ?? decodedSec);
    progress = jobPercent('preparing', 100);

    const run = deps.engine.transcribe(
      { pcmPath, durationSec },
      {
        language: row.language,
        translate: row.translate,
        engine: row.engineChoice,
        detectSpeech: row.detectSpeech,
        ...(withSpeakers ? { speakers: { count: row.speakerCount } } : {}),
        signal: ctx.signal,
        onStage(next) {
          if (next === stage) return;
          stage = next;
          publishStatus();
          savePartial(true);
        },
        onProgress(percent, detail) {
          const next = Math.max(progress, jobPercent('engine', percent));
          // An engine that cannot tell the time left any more (null) says so.
          const left = detail ? detail.remainingSec : remainingSec;
          if (next === progress && left === remainingSec) return;
          progress = next;
          remainingSec = left;
          publishStatus();
          savePartial();
        },
        onSegment(segment) {
          // Already well-formed (engine/segment-stream.ts); speakers named, repeated loops dropped.
          const kept = guard.accept(labeler.label(segment));
          if (!kept) return;
          segments.push(kept);
          events.publish(transcriptId, { type: 'segment', index: segments.length - 1, segment: kept });
          savePartial();
        },
      },
    );
    const result = await run.catch((err: unknown) => {
      // Identifying speakers failed once the text was complete: the text is kept, without speakers.
      if (!(stage === 'speakers' && err instanceof EngineError && /speaker diarization/.test(err.message)))
        throw err;
      deps.logger.warn({ transcriptId, code: err.code }, `speakers not identified: ${err.message}`);
      speakerNote = 'failed';
      return { language: null, speechRegions: null, segments };
    });
    await saving;
    stage = 'saving';
    progress = Math.max(progress, jobPercent('saving', 0));
    publishStatus();
    await finish(deps, row, segments, result, durationSec, { labeler, locale, speakerNote });
  } catch (err) {
    await saving;
    await fail(deps, transcriptId, ctx, err, progress, 'processing');
  } finally {
    clearInterval(heartbeat);
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Ends a job that threw: handed back, retried later, or failed with the user's reason. */
async function fail(
  deps: PipelineDeps,
  transcriptId: string,
  ctx: JobContext,
  err: unknown,
  progress: number,
  from: 'queued' | 'processing',
): Promise<void> {
  const { db, events } = deps;
  // The database or the store away for a moment: the queue runs the job again later, unspent;
  // the transcript stays as it is (the run begins again from the start).
  if (isDependencyOutage(err)) throw err;
  const current = and(eq(transcripts.id, transcriptId), eq(transcripts.status, from));
  const requeue = { status: 'queued' as const, progress: 0, stage: null, remainingSec: null };
  if (ctx.signal.aborted) {
    // Canceled by the user (the API already marked it) or handed back at shutdown.
    if (ctx.signal.reason === 'shutdown') {
      await db.update(transcripts).set(requeue).where(current);
      throw new JobInterruptedError();
    }
    return;
  }
  const transient = (err instanceof EngineError && err.transient) || isTransientIo(err);
  if (transient && ctx.attempt < ctx.maxAttempts) {
    await db.update(transcripts).set(requeue).where(current);
    events.publish(transcriptId, { type: 'status', status: 'queued', progress: 0, stage: null });
    throw new RetryableError(reasonOf(err).detail);
  }
  const reason = reasonOf(err);
  if (reason.code === 'internal') deps.logger.error({ err, transcriptId }, 'transcription failed');
  // The operator's side of an engine that cannot run (the user sees a translated reason only).
  if (
    reason.code === 'model_missing' ||
    reason.code === 'model_unavailable' ||
    reason.code === 'model_invalid'
  )
    deps.logger.error({ transcriptId, code: reason.code }, reason.detail);
  const failed = await db
    .update(transcripts)
    .set({
      status: 'failed',
      stage: null,
      remainingSec: null,
      errorCode: reason.code,
      errorDetail: reason.detail,
      updatedAt: new Date(),
    })
    .where(current)
    .returning({ id: transcripts.id });
  events.publish(transcriptId, {
    type: 'status',
    status: 'failed',
    progress,
    stage: null,
    errorCode: reason.code,
  });
  if (failed.length > 0) await deps.notify?.({ event: 'transcript.failed', transcriptId });
}

function isTransientIo(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOSPC' || code === 'EMFILE' || code === 'ECONNRESET' || code === 'ETIMEDOUT';
}

/**
 * Saves the result and charges the minutes exactly once (usage is unique per transcript). The
 * segments are the ones streamed (normalised and through the repetition guard).
 */
async function finish(
  deps: PipelineDeps,
  row: Transcript,
  streamed: Segment[],
  result: {
    language: string | null;
    speechRegions: SpeechRegion[] | null;
    speakerTurns?: SpeakerTurn[] | null;
    model?: string;
  },
  decodedSec: number,
  who: { labeler: SpeakerLabeler; locale: string; speakerNote: SpeakerNote | null },
) {
  const durationSec = row.durationSec ?? decodedSec;
  let segments = streamed;
  let speakers = usedSpeakers(who.labeler.speakers(), segments);
  if (result.speakerTurns?.length) {
    // Local diarization: each word (or segment) goes to whoever overlaps it most.
    ({ segments, speakers } = speakersFromTurns(segments, result.speakerTurns, who.locale));
  }
  const language = result.language;
  const done = await deps.db.transaction(async (tx) => {
    const updated = await tx
      .update(transcripts)
      .set({
        status: 'done',
        progress: 100,
        stage: null,
        remainingSec: null,
        speechRegions: result.speechRegions,
        segments,
        speakers,
        speakerNote: who.speakerNote,
        plainText: segmentsToPlainText(segments),
        detectedLanguage: language,
        engine: result.model ?? deps.engine.name,
        completedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(transcripts.id, row.id), eq(transcripts.status, 'processing')))
      .returning({ id: transcripts.id });
    if (updated.length === 0) return false;
    await tx
      .insert(usageRecords)
      .values({
        workspaceId: row.workspaceId,
        userId: row.userId,
        transcriptId: row.id,
        seconds: durationSec,
      })
      .onConflictDoNothing({ target: usageRecords.transcriptId });
    return true;
  });
  if (done) deps.events.publish(row.id, { type: 'status', status: 'done', progress: 100, stage: null });
  if (done) await deps.notify?.({ event: 'transcript.completed', transcriptId: row.id });
}
