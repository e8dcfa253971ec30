import type { TranslationTrack } from '../../db/schema';
import type { TrackJson } from '../../../common/translation-types';
import { translationLanguage } from '../../../common/translation-languages';

export type { TrackJson };

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
