// Exports of stored transcripts: one as a file, or several as one zip, checked against the
// caller's plan and ownership. build.ts makes the files from plain data.

import { and, eq } from 'drizzle-orm';
import { ExportCode } from '../../../common/error-codes';
import { EXPORT_CONTENT_TYPES } from '../../../common/exports';
import { transcripts, type Transcript } from '../../db/schema';
import type { Actor } from '../workspaces/actor';
import { recordActivity } from '../transcription/activity';
import { ApiError } from '../errors';
import type { TranscriptionDeps } from '../transcription/deps';
import { bulkTranscripts, ownTranscript, transcriptNotFound } from '../transcription/ownership';
import { madeChapters } from '../insights/made';
import { planLimits } from '../workspaces/plan';
import {
  assertFormatAllowed,
  buildExport,
  buildZip,
  type ExportFile,
  type ExportFormat,
  type ExportOptions,
  type ExportSource,
} from './build';

const notReady = (ids: string[]) => new ApiError(ExportCode.NOT_READY, 'errors.exports.notReady', { ids });

/** The transcript as export input. Translations are English; otherwise the detected language. */
export function exportSource(
  t: Pick<
    Transcript,
    'name' | 'segments' | 'speakers' | 'durationSec' | 'language' | 'detectedLanguage' | 'translate'
  >,
  chapters?: ExportSource['chapters'],
): ExportSource {
  const language = t.translate ? 'en' : (t.detectedLanguage ?? (t.language === 'auto' ? null : t.language));
  return {
    name: t.name,
    segments: t.segments,
    speakers: t.speakers,
    durationSec: t.durationSec,
    language,
    ...(chapters?.length ? { chapters } : {}),
  };
}

/** One finished transcript the actor reaches as a file. */
export async function exportTranscript(
  deps: TranscriptionDeps,
  actor: Actor,
  id: string,
  format: ExportFormat,
  opts: ExportOptions,
): Promise<ExportFile> {
  const row = await ownTranscript(deps, actor, id, 'transcript.export');
  // The transcript's workspace's plan (its owner's), whoever exports.
  assertFormatAllowed(await planLimits(deps.db, row.workspaceId), format);
  if (row.status !== 'done') throw notReady([row.id]);
  const file = await buildExport(exportSource(row, await madeChapters(deps.db, row.id)), format, opts);
  await recordActivity(
    deps.db,
    {
      workspaceId: row.workspaceId,
      transcriptId: row.id,
      userId: actor.user.id,
      kind: 'exported',
      detail: { format },
    },
    deps.now(),
  );
  return file;
}

/** A zip of the finished transcripts asked for, and the ones left out because they are not. */
export interface BulkExport extends ExportFile {
  /** Ids asked for that are still waiting, running or failed, in the order asked. */
  skipped: string[];
}

/**
 * The finished transcripts among several of the current workspace's as one zip, its entries in
 * the order asked; unfinished ones are left out and named in `skipped`. Fails whole when any is
 * missing or elsewhere (they look the same), and when none is finished.
 */
export async function exportTranscripts(
  deps: TranscriptionDeps,
  actor: Actor,
  requested: string[],
  format: ExportFormat,
  opts: ExportOptions,
): Promise<BulkExport> {
  assertFormatAllowed(await planLimits(deps.db, actor.workspace.id), format);
  const ids = [...new Set(requested)];
  const { db } = deps;
  const mine = bulkTranscripts(actor, 'transcript.export', ids);
  const found = await db
    .select({ id: transcripts.id, status: transcripts.status })
    .from(transcripts)
    .where(mine);
  if (found.length !== ids.length) throw transcriptNotFound();
  const done = new Set(found.filter((t) => t.status === 'done').map((t) => t.id));
  const skipped = ids.filter((id) => !done.has(id));
  if (done.size === 0) throw notReady(skipped);

  // One transcript's segments in memory at a time.
  const entries = [];
  for (const id of ids) {
    if (!done.has(id)) continue;
    const [row] = await db
      .select({
        name: transcripts.name,
        segments: transcripts.segments,
        speakers: transcripts.speakers,
        durationSec: transcripts.durationSec,
        language: transcripts.language,
        detectedLanguage: transcripts.detectedLanguage,
        translate: transcripts.translate,
      })
      .from(transcripts)
      .where(and(mine, eq(transcripts.id, id), eq(transcripts.status, 'done')));
    // Deleted or re-run since the check above.
    if (!row) throw transcriptNotFound();
    entries.push(await buildExport(exportSource(row, await madeChapters(db, id)), format, opts));
  }
  for (const id of done) {
    await recordActivity(
      db,
      {
        workspaceId: actor.workspace.id,
        transcriptId: id,
        userId: actor.user.id,
        kind: 'exported',
        detail: { format },
      },
      deps.now(),
    );
  }
  return {
    filename: `transcripts-${deps.now().toISOString().slice(0, 10)}.zip`,
    contentType: EXPORT_CONTENT_TYPES.zip,
    body: buildZip(entries),
    skipped,
  };
}
