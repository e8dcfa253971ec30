import type { TranslationTrack } from '../../db/schema';
import type { TranslationStatus } from '../../../common/record-states';
import { translationLanguage } from '../../../common/translation-languages';

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
  error: string | null;
  /** The original was edited after this translation was made. */
  stale: boolean;
  created_at: string;
  completed_at: string | null;
}

export function trackJson(t: TranslationTrack, transcriptUpdatedAt?: Date, withTexts = true): TrackJson {
  const lang = translationLanguage(t.language);
  return {
    id: t.id,
    transcript_id: t.transcriptId,
    language: t.language,
    language_name: lang?.name ?? t.language,
    native_name: lang?.native ?? t.language,
    status: t.status,
    progress: t.progress,
    revision: t.revision,
    chars: t.chars,
    texts: withTexts ? t.texts : [],
    error: t.errorCode,
    stale: !!(transcriptUpdatedAt && t.sourceUpdatedAt && transcriptUpdatedAt > t.sourceUpdatedAt),
    created_at: t.createdAt.toISOString(),
    completed_at: t.completedAt?.toISOString() ?? null,
  };
}
