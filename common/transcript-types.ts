import type { Segment } from './segments';

export type TranscriptStatus = 'queued' | 'processing' | 'done' | 'failed' | 'canceled';

/** A transcript as the API returns it (segments only on single reads). */
export interface TranscriptJson {
  id: string;
  name: string;
  folder_id: string | null;
  source: 'upload' | 'import';
  status: TranscriptStatus;
  progress: number;
  language: string;
  detected_language: string | null;
  translate: boolean;
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
  segments?: Segment[];
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
