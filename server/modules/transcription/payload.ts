import type { Folder, Transcript } from '../../db/schema';
import type { SearchSnippet } from '../../../common/search-snippet';
import type { TranscriptJson } from '../../../common/transcript-types';
import type { TranscriptionDeps } from './deps';
import type { summaryColumns } from './summary-columns';
import { queuePosition } from './queue-position';
import { lastEdit } from './activity';

type Summary = Pick<Transcript, keyof typeof summaryColumns | 'workspaceId'>;

/** The API shape of a transcript (snake_case, like the rest of the API). */
export function transcriptJson(
  t: Summary & {
    segments?: Transcript['segments'];
    speakers?: Transcript['speakers'];
    speechRegions?: Transcript['speechRegions'];
    /** A search's match in the text (list searches only). */
    snippet?: SearchSnippet | null;
  },
  extra: { queuePosition?: number | null } = {},
): TranscriptJson {
  return {
    id: t.id,
    workspace_id: t.workspaceId,
    name: t.name,
    folder_id: t.folderId,
    source: t.source,
    source_url: t.sourceUrl ?? null,
    status: t.status,
    progress: t.progress,
    language: t.language,
    detected_language: t.detectedLanguage,
    translate: t.translate,
    engine: t.engineChoice,
    model: t.engine ?? null,
    duration: t.durationSec,
    media: t.mediaKey
      ? {
          name: t.mediaName,
          type: t.mediaType,
          size: t.mediaSize,
          has_video: t.hasVideo,
          url: `/self-api/v1/transcripts/${t.id}/media`,
        }
      : null,
    error: t.errorCode ? { code: t.errorCode, message: `errors.media.${t.errorCode}` } : null,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
    completed_at: t.completedAt?.toISOString() ?? null,
    stage: t.status === 'queued' || t.status === 'processing' ? (t.stage ?? null) : null,
    remaining_sec: t.status === 'processing' ? (t.remainingSec ?? null) : null,
    detect_speech: t.detectSpeech,
    detect_speakers: t.detectSpeakers,
    speaker_count: t.speakerCount,
    speaker_note: t.speakerNote ?? null,
    ...(extra.queuePosition !== undefined ? { queue_position: extra.queuePosition } : {}),
    ...(t.speechRegions !== undefined ? { speech_regions: t.speechRegions } : {}),
    ...(t.segments ? { segments: t.segments, speakers: t.speakers ?? [] } : {}),
    ...(t.snippet !== undefined ? { snippet: t.snippet } : {}),
  };
}

/**
 * A single transcript with what only single reads carry: the queue position while it waits, and
 * who edited it last.
 */
export async function fullJson(d: Pick<TranscriptionDeps, 'db'>, row: Transcript): Promise<TranscriptJson> {
  const [position, last] = await Promise.all([queuePosition(d, row), lastEdit(d.db, row)]);
  return { ...transcriptJson(row, { queuePosition: position }), last_edit: last };
}

/** A folder as the API shows it; with its transcript count when listed. */
export function folderJson(f: Pick<Folder, 'id' | 'name' | 'createdAt'> & { count?: number }) {
  return {
    id: f.id,
    name: f.name,
    created_at: f.createdAt.toISOString(),
    ...(f.count !== undefined ? { transcript_count: Number(f.count) } : {}),
  };
}
