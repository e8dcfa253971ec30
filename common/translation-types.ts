// What the translation API sends (server/modules/translation/payload.ts) and the pages read.
import type { TranslationStatus } from './record-states';

export interface TrackJson {
  id: string;
  transcript_id: string;
  language: string;
  language_name: string;
  native_name: string;
  status: TranslationStatus;
  progress: number;
  revision: number;
  chars: number;
  /** One text per segment of the transcript (same order, same timings). */
  texts: string[];
  /** Why it failed: a key under errors.translation.reasons. */
  error: string | null;
  /** The original was edited after this translation was made. */
  stale: boolean;
  created_at: string;
  completed_at: string | null;
  /** Segments being translated again (jobs waiting or running); their new text comes by the event stream. */
  retranslating?: number[];
}

/** The plan's translation characters this month (GET /transcripts/:id/translations). */
export interface TranslationQuotaJson {
  /** null: unlimited; 0: the plan has no translations. */
  limit: number | null;
  used: number;
  left: number | null;
}

export interface GlossaryTermJson {
  source: string;
  /** null: kept as it is. */
  target: string | null;
}
