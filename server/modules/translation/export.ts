import { strToU8, zipSync, type Zippable } from 'fflate';
import { eq } from 'drizzle-orm';
import { transcripts, workspaces, type Transcript, type TranslationTrack } from '../../db/schema';
import { ExportCode, TranslationCode } from '../../../common/error-codes';
import { lockedFormats } from '../../../common/ranks';
import { ApiError } from '../errors';
import type { Actor } from '../workspaces/actor';
import { workspacePlan } from '../workspaces/plan';
import { transcriptFor } from '../render/access';
import { trackFor } from './access';
import type { TranslationDeps } from './deps';
import { tracksOf } from './list';
import { formatSrtCues, formatVttCues } from '../../../common/captions';
import { exportFileName, uniqueFileNames } from '../../../common/exports';
import type { ExportFormat } from '../../../common/ranks';
import type { Segment } from '../../../common/segments';
import { buildExport, type ExportFile, type ExportSource } from '../exports/build';

/**
 * The transcript's segments with a track's texts: same timings and speakers; word timings are
 * the original's and are dropped (the cues are timed again from the translated text).
 */
export function trackSegments(
  segments: readonly Segment[],
  track: Pick<TranslationTrack, 'texts'>,
): Segment[] {
  return segments.map((s, i) => {
    const { words: _words, ...rest } = s;
    return { ...rest, text: track.texts[i] ?? '' };
  });
}

export function trackSource(t: Transcript, track: TranslationTrack): ExportSource {
  return {
    name: `${t.name}.${track.language}`,
    segments: trackSegments(t.segments, track),
    durationSec: t.durationSec,
    // Cues are cut and timed for the target language's readers (common/reading-speed.ts).
    language: track.language,
    readingSpeed: true,
    speakers: t.speakers,
  };
}

/** One track in one format (the export options of the original). */
export function exportTrack(
  t: Transcript,
  track: TranslationTrack,
  format: ExportFormat,
  productName: string,
  timestamps = false,
) {
  return buildExport(trackSource(t, track), format, { productName, timestamps });
}

/**
 * Bilingual subtitles: one cue per segment, the original line over its translation (players
 * show both; a learner or a reviewer reads them side by side).
 */
export function bilingualFile(t: Transcript, track: TranslationTrack, format: 'srt' | 'vtt'): ExportFile {
  const cues = t.segments.flatMap((s, i) => {
    const original = s.text.replace(/\s+/g, ' ').trim();
    const translated = (track.texts[i] ?? '').replace(/\s+/g, ' ').trim();
    const lines = [original, translated].filter((l) => l !== '');
    return lines.length ? [{ start: s.start, end: s.end, lines }] : [];
  });
  return {
    filename: exportFileName(`${t.name}.${track.language}.bilingual`, format),
    contentType: format === 'srt' ? 'application/x-subrip; charset=utf-8' : 'text/vtt; charset=utf-8',
    body: format === 'srt' ? formatSrtCues(cues) : formatVttCues(cues),
  };
}

/** A zip of the original and every finished track in `format`. */
export async function exportAllTracks(
  t: Transcript,
  tracks: TranslationTrack[],
  format: ExportFormat,
  productName: string,
): Promise<ExportFile> {
  const original = await buildExport(
    {
      name: t.name,
      segments: t.segments,
      durationSec: t.durationSec,
      language: t.detectedLanguage,
      speakers: t.speakers,
    },
    format,
    { productName },
  );
  const files = [
    original,
    ...(await Promise.all(
      tracks.filter((k) => k.status === 'done').map((k) => exportTrack(t, k, format, productName)),
    )),
  ];
  const names = uniqueFileNames(files.map((f) => f.filename));
  const zip: Zippable = {};
  files.forEach((f, i) => (zip[names[i]!] = typeof f.body === 'string' ? strToU8(f.body) : f.body));
  return {
    filename: exportFileName(`${t.name}.translations`, 'zip'),
    contentType: 'application/zip',
    body: zipSync(zip, { level: 6 }) as Uint8Array<ArrayBuffer>,
  };
}

/** The plan's export formats (40304 with the plan to move to, like the original's exports). */
async function assertFormat(db: TranslationDeps['db'], workspaceId: string, format: ExportFormat) {
  const [ws] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  const { limits, rankName } = await workspacePlan(db, ws!);
  if (!limits.export_formats.includes(format)) {
    const [locked] = lockedFormats(rankName, limits.export_formats).filter((l) => l.format === format);
    throw new ApiError(ExportCode.FORMAT_NOT_IN_PLAN, 'errors.exports.formatNotInPlan', {
      format,
      rank: locked?.rank ?? null,
    });
  }
}

/** One finished track as a file; `bilingual` (srt, vtt) puts the original over the translation. */
export async function trackExportFile(
  deps: Pick<TranslationDeps, 'db'>,
  actor: Actor,
  trackId: string,
  opts: { format: ExportFormat; bilingual?: boolean; timestamps?: boolean; productName: string },
): Promise<ExportFile> {
  const track = await trackFor(deps.db, actor, trackId, 'transcript.export');
  if (track.status !== 'done') throw new ApiError(TranslationCode.NOT_READY, 'errors.translation.notReady');
  await assertFormat(deps.db, track.workspaceId, opts.format);
  const [t] = await deps.db.select().from(transcripts).where(eq(transcripts.id, track.transcriptId));
  if (opts.bilingual && (opts.format === 'srt' || opts.format === 'vtt'))
    return bilingualFile(t!, track, opts.format);
  return exportTrack(t!, track, opts.format, opts.productName, opts.timestamps);
}

/** The original and all finished tracks of a transcript in one zip. */
export async function allTracksExportFile(
  deps: Pick<TranslationDeps, 'db'>,
  actor: Actor,
  transcriptId: string,
  format: ExportFormat,
  productName: string,
): Promise<ExportFile> {
  const { transcript, tracks } = await tracksOf(deps, actor, transcriptId);
  await transcriptFor(deps.db, actor, transcriptId, 'transcript.export');
  if (transcript.status !== 'done') throw new ApiError(ExportCode.NOT_READY, 'errors.exports.notReady');
  await assertFormat(deps.db, transcript.workspaceId, format);
  return exportAllTracks(transcript, tracks, format, productName);
}
