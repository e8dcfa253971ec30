// "Identify speakers" on a finished transcript: asked for from the page or the API (a job on the
// transcription lane, where the engine runs), then the speakers of the audio put on the text as
// it is now — the text itself is never changed. A transcript that asked for speakers while the
// speaker models were missing is delivered without them (transcription/process.ts) and can be
// given them here later.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, isNull, ne, or } from 'drizzle-orm';
import { SpeakerCode } from '../../../common/error-codes';
import type { SpeakerNote } from '../../../common/record-states';
import { segmentsToPlainText } from '../../../common/segments';
import type { Db } from '../../db/client';
import { transcripts, users } from '../../db/schema';
import type { Actor } from '../workspaces/actor';
import type { Logger } from '../../logger';
import { isDependencyOutage } from '../../outage';
import { EngineError, type Engine } from '../engine/types';
import { ApiError } from '../errors';
import type { JobQueue, JobContext } from '../jobs/queue';
import { JobInterruptedError } from '../jobs/queue';
import { decodeToPcm, PCM_BYTES_PER_SECOND } from '../media/decode';
import type { Storage } from '../storage/storage';
import type { TranscriptEvents } from '../jobs/events';
import { ownTranscript } from '../transcription/ownership';
import { speakersFromTurns } from './from-turns';

/**
 * Whether this server's engine identifies speakers itself (local diarization beside the local
 * recognizer). An OpenAI-compatible server labels speakers while it transcribes, or not at all.
 */
export const canIdentifySpeakers = (env: { TRANSCRIBE_ENGINE: string }): boolean =>
  env.TRANSCRIBE_ENGINE !== 'openai';

export const speakersNotReady = () => new ApiError(SpeakerCode.NOT_READY, 'errors.speakers.notReady');
export const speakersUnavailable = () => new ApiError(SpeakerCode.UNAVAILABLE, 'errors.speakers.unavailable');

/**
 * Queues the identification of a finished transcript's speakers (`count`: how many are expected,
 * null = find out). Refused when the engine cannot identify speakers, or the transcript is not
 * finished, has no media or is being identified already.
 */
export async function requestSpeakers(
  deps: { db: Db; queue: JobQueue; now: () => Date },
  env: { TRANSCRIBE_ENGINE: string },
  actor: Actor,
  id: string,
  count: number | null,
) {
  const row = await ownTranscript(deps, actor, id, 'transcript.edit');
  if (!canIdentifySpeakers(env)) throw speakersUnavailable();
  if (row.status !== 'done' || !row.mediaKey || row.speakerNote === 'identifying') throw speakersNotReady();
  const [updated] = await deps.db
    .update(transcripts)
    .set({ speakerNote: 'identifying', updatedAt: deps.now() })
    .where(
      and(
        eq(transcripts.id, row.id),
        eq(transcripts.status, 'done'),
        or(isNull(transcripts.speakerNote), ne(transcripts.speakerNote, 'identifying')),
      ),
    )
    .returning();
  if (!updated) throw speakersNotReady();
  await deps.queue.add('identify-speakers', { transcriptId: row.id, count }, { key: row.id, once: true });
  return updated;
}

export interface IdentifyDeps {
  db: Db;
  storage: Storage;
  engine: Engine;
  events: TranscriptEvents;
  ffmpeg: string;
  logger: Logger;
  tmpDir?: string;
}

/** Tries to put the speakers on the text when someone edited it meanwhile. */
const SAVE_ATTEMPTS = 3;

/** The job: decode the media, find who spoke when, name them on the text as it is now. */
export async function identifySpeakersJob(
  deps: IdentifyDeps,
  payload: { transcriptId: string; count: number | null },
  ctx: JobContext,
): Promise<void> {
  const { db } = deps;
  const identifying = and(
    eq(transcripts.id, payload.transcriptId),
    eq(transcripts.status, 'done'),
    eq(transcripts.speakerNote, 'identifying'),
  );
  const [row] = await db.select().from(transcripts).where(identifying);
  if (!row?.mediaKey || !deps.engine.identifySpeakers) return;
  const end = async (note: SpeakerNote | null) => {
    await db.update(transcripts).set({ speakerNote: note, updatedAt: new Date() }).where(identifying);
  };
  const workDir = await mkdtemp(path.join(deps.tmpDir ?? os.tmpdir(), 'clipscribe-speakers-'));
  try {
    if (deps.engine.speakersReady) await deps.engine.speakersReady({ signal: ctx.signal });
    const pcmPath = path.join(workDir, 'audio.pcm');
    const mediaKey = row.mediaKey;
    await deps.storage.withLocalFile(mediaKey, (file) => decodeToPcm(deps.ffmpeg, file, pcmPath, ctx.signal));
    const decodedSec = (await stat(pcmPath)).size / PCM_BYTES_PER_SECOND;
    const turns = await deps.engine.identifySpeakers(
      { pcmPath, durationSec: Math.min(decodedSec, row.durationSec ?? decodedSec) },
      { count: payload.count, signal: ctx.signal },
    );
    const [owner] = row.userId
      ? await db.select({ language: users.language }).from(users).where(eq(users.id, row.userId))
      : [];
    // The text as it is now (it may have been edited while this ran): saved only if unchanged since.
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
      const [current] = await db.select().from(transcripts).where(identifying);
      if (!current) return;
      const named = speakersFromTurns(current.segments, turns, owner?.language ?? 'en');
      const saved = await db
        .update(transcripts)
        .set({
          segments: named.segments,
          speakers: named.speakers,
          plainText: segmentsToPlainText(named.segments),
          speakerNote: null,
          updatedAt: new Date(),
        })
        .where(and(identifying, eq(transcripts.updatedAt, current.updatedAt)))
        .returning({ id: transcripts.id });
      if (saved.length > 0) return;
    }
    await end('failed');
  } catch (err) {
    if (isDependencyOutage(err)) throw err;
    if (ctx.signal.aborted) {
      // Handed back at shutdown: runs again; otherwise nothing more to do.
      if (ctx.signal.reason === 'shutdown') throw new JobInterruptedError();
      return;
    }
    const missing =
      err instanceof EngineError && (err.code === 'model_missing' || err.code === 'model_unavailable');
    deps.logger.warn({ transcriptId: row.id, err: (err as Error).message }, 'speakers not identified');
    await end(missing ? 'unavailable' : 'failed');
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
