import type { TrackJson } from '../../../common/translation-types';
import type { ExportChoice } from '../transcripts/export-control';

/**
 * What the export button fetches: the original's export, the chosen track's (bilingual SRT/VTT:
 * the original line over the translation), or one zip of the original and every finished track.
 */
export function trackExportUrl(transcriptId: string, track: TrackJson | null, choice: ExportChoice): string {
  const { format, timestamps, segmentCues, bilingual, allTracks } = choice;
  const subtitles = format === 'srt' || format === 'vtt';
  if (allTracks)
    return `/self-api/v1/transcripts/${transcriptId}/translations/export?${new URLSearchParams({ format }).toString()}`;
  const query = new URLSearchParams({
    format,
    ...(format === 'txt' && timestamps ? { timestamps: '1' } : {}),
    ...(!track && subtitles && segmentCues ? { cues: 'segment' } : {}),
    ...(track && subtitles && bilingual ? { bilingual: '1' } : {}),
  }).toString();
  return track
    ? `/self-api/v1/translations/${track.id}/export?${query}`
    : `/self-api/v1/transcripts/${transcriptId}/export?${query}`;
}
