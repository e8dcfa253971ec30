import { sharePath, type ShareLinkJson, type SharedTranscriptJson } from '../../../common/transcript-types';
import type { ShareLink, TranslationTrack } from '../../db/schema';
import { translationLanguage } from '../../../common/translation-languages';
import type { Chapter, Summary } from '../../../common/insights';
import type { ResolvedShare } from './shares';

/** A link as its owner sees it. */
export function shareJson(s: ShareLink): ShareLinkJson {
  return {
    id: s.id,
    url: sharePath(s.transcriptId, s.id),
    expires_at: s.expiresAt?.toISOString() ?? null,
    allow_media: s.allowMedia,
    allow_download: s.allowDownload,
    include_insights: s.includeInsights,
    created_at: s.createdAt.toISOString(),
    revoked_at: s.revokedAt?.toISOString() ?? null,
    views: s.views,
  };
}

const sharedBase = (transcriptId: string, shareId: string) =>
  `/self-api/v1/shares/${transcriptId}/${shareId}`;

/** What a link's visitors get: the text, and media / downloads only as the link allows. */
export function sharedTranscriptJson(
  { share, transcript: t, exportFormats }: ResolvedShare,
  tracks: readonly TranslationTrack[] = [],
  insights: { summary: Summary | null; chapters: Chapter[] } = { summary: null, chapters: [] },
): SharedTranscriptJson {
  const base = sharedBase(t.id, share.id);
  const media = share.allowMedia && !!t.mediaKey;
  return {
    id: t.id,
    share_id: share.id,
    name: t.name,
    duration: t.durationSec,
    language: t.detectedLanguage ?? (t.language === 'auto' ? null : t.language),
    segments: t.segments,
    speakers: t.speakers,
    has_video: media && t.hasVideo,
    media_url: media ? `${base}/media` : null,
    allow_download: share.allowDownload,
    export_url: share.allowDownload ? `${base}/export` : null,
    export_formats: share.allowDownload ? exportFormats : [],
    tracks: tracks.map((k) => ({
      language: k.language,
      native_name: translationLanguage(k.language)?.native ?? k.language,
      texts: k.texts,
    })),
    // Never without the link's option, whatever was made.
    summary: share.includeInsights ? insights.summary : null,
    chapters: share.includeInsights && insights.chapters.length > 0 ? insights.chapters : null,
  };
}
