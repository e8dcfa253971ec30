import type { Chapter, Summary } from './insights';
import type { EngineChoice } from './engines';
import type { ExportFormat } from './ranks';
import type { SearchSnippet } from './search-snippet';
import type { Segment } from './segments';
import type { Speaker } from './speakers';
import type { SpeakerNote, TranscriptSource, TranscriptStatus } from './record-states';

export type { TranscriptSource, TranscriptStatus } from './record-states';

/**
 * What a job is doing, in order: downloading the media (a link import), waiting for the speech
 * engine (its model downloading), preparing the audio (decoding), detecting speech,
 * transcribing, identifying speakers, saving.
 */
export const TRANSCRIPT_STAGES = [
  'downloading',
  'engine',
  'preparing',
  'detecting',
  'transcribing',
  'speakers',
  'saving',
] as const;
export type TranscriptStage = (typeof TRANSCRIPT_STAGES)[number];

/** A stretch of the media that holds speech, in seconds (the rest was not transcribed). */
export interface SpeechRegion {
  start: number;
  end: number;
}

/** A transcript as the API returns it (segments only on single reads). */
export interface TranscriptJson {
  id: string;
  /** The workspace it belongs to (its members are who may be mentioned in its comments). */
  workspace_id: string;
  /** Who changed the text, speakers or name last (single reads only); by is null for a deleted account. */
  last_edit?: { by: { id: string; name: string } | null; at: string } | null;
  name: string;
  folder_id: string | null;
  /** upload: a file sent here; import: captions imported; link: media downloaded from source_url. */
  source: TranscriptSource;
  /** The link the media was downloaded from (source link), else null. */
  source_url: string | null;
  status: TranscriptStatus;
  progress: number;
  language: string;
  detected_language: string | null;
  translate: boolean;
  /** The model family asked for ('auto' = the best for the language). */
  engine: EngineChoice;
  /** The model that made the transcript, once done ('whisper-base', 'parakeet-tdt-0.6b-v3-int8' …). */
  model: string | null;
  duration: number | null;
  media: {
    name: string | null;
    type: string | null;
    size: number | null;
    has_video: boolean;
    url: string;
  } | null;
  error: { code: string; message: string } | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** What a queued or running job is doing; null otherwise. */
  stage: TranscriptStage | null;
  /** Seconds of work left, from the measured speed; null while unknown. */
  remaining_sec: number | null;
  /** Whether speech is detected first (only speech is transcribed). */
  detect_speech: boolean;
  /** Whether speakers are identified (local diarization), and how many were expected (null: any). */
  detect_speakers: boolean;
  speaker_count: number | null;
  /**
   * About the speakers: being identified on the finished transcript, or asked for but not
   * identified (`unavailable`: the speaker models are not on the server; `failed`). Null: nothing.
   */
  speaker_note: SpeakerNote | null;
  /** Transcripts waiting in the queue: how many files are ahead (single reads only). */
  queue_position?: number | null;
  /** The stretches transcribed when speech was detected (single reads only); null = all of it. */
  speech_regions?: SpeechRegion[] | null;
  segments?: Segment[];
  /** Who speaks (with the segments): segments and words name them by id. */
  speakers?: Speaker[];
  /** Searches only: where the text matched (null when only the name did). */
  snippet?: SearchSnippet | null;
}

export interface TranscriptPage {
  items: TranscriptJson[];
  total: number;
  page: number;
  page_size: number;
}

export const ACTIVE_STATUSES: readonly TranscriptStatus[] = ['queued', 'processing'];

/** Caption files become transcripts directly; everything else is media for the engine. */
export function isCaptionFile(name: string): boolean {
  return /\.(srt|vtt)$/i.test(name);
}

/** Share link ids: base64url of 16+ random bytes (22+ characters, ≥ 128 bits). */
export const SHARE_ID_RE = /^[A-Za-z0-9_-]{22,64}$/;

/** The public path of a share link (without a language prefix). */
export function sharePath(transcriptId: string, shareId: string): string {
  return `/transcript/share/${transcriptId}/${shareId}`;
}

/** A share link as its owner sees it. */
export interface ShareLinkJson {
  id: string;
  /** Path of the public page, e.g. /transcript/share/<transcript>/<share>. */
  url: string;
  expires_at: string | null;
  allow_media: boolean;
  allow_download: boolean;
  /** The public page shows the summary and chapters (when made). */
  include_insights: boolean;
  created_at: string;
  revoked_at: string | null;
  views: number;
}

/** What a share link shows to anyone who has it: no owner, no ids beyond the link's own. */
export interface SharedTranscriptJson {
  id: string;
  share_id: string;
  name: string;
  duration: number | null;
  language: string | null;
  segments: Segment[];
  speakers: Speaker[];
  has_video: boolean;
  /** Only when the link includes the media. */
  media_url: string | null;
  allow_download: boolean;
  /** Base of the export links (add ?format=…) when downloads are allowed, else null. */
  export_url: string | null;
  /** The formats the owner's plan exports; empty when downloads are not allowed. */
  export_formats: ExportFormat[];
  /**
   * Finished translations (one text per segment, same timings): the page shows a language switcher,
   * and downloads take `track=<language>`.
   */
  tracks: SharedTrackJson[];
  /** Only when the link includes them and they were made; citations seek the shared player. */
  summary: Summary | null;
  chapters: Chapter[] | null;
}

export interface SharedTrackJson {
  language: string;
  native_name: string;
  texts: string[];
}
