import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { isEmpty } from '../../../common/is-empty';
import { ApiClientError } from '../../lib/api-client';
import { downloadFile } from '../../lib/download';
import { useStoredItem } from '../../lib/use-stored-item';
import type { LockedFormat } from '../../../common/ranks';
import { LockedFormats, useLockedLabel } from './locked-formats';

const OPTIONS_KEY = 'export-options';

export interface ExportChoice {
  format: string;
  /** txt only: each segment starts with its times. */
  timestamps: boolean;
  /** srt/vtt only: one cue per segment instead of subtitle-sized cues. */
  segmentCues: boolean;
  /** srt/vtt of a translation: the original line over the translated one. */
  bilingual: boolean;
  /** One zip of the original and every translation. */
  allTracks: boolean;
}

const DEFAULT_CHOICE: ExportChoice = {
  format: 'txt',
  timestamps: true,
  segmentCues: false,
  bilingual: false,
  allTracks: false,
};

/**
 * Format, times for txt, and the export button: one control for a transcript's page and for the
 * dashboard's selection. `request` says what to fetch; the file arrives as a download, and a
 * refusal (a format the plan lacks, a transcript not finished) as a translated toast.
 */
export function ExportControl({
  formats,
  locked = [],
  offerTimestamps,
  offerSegmentCues = false,
  offerBilingual = false,
  offerAllTracks = false,
  request,
  onDownloaded,
  className = '',
}: {
  formats: readonly string[];
  /** Formats the plan lacks: shown locked, with the plan that has them. */
  locked?: readonly LockedFormat[];
  /** Show the "with times" box for txt (the dashboard always includes them). */
  offerTimestamps: boolean;
  /** Show the "one cue per segment" box for srt/vtt (subtitle-sized cues otherwise). */
  offerSegmentCues?: boolean;
  /** Show the "original and translation" box for srt/vtt (a translation is shown). */
  offerBilingual?: boolean;
  /** Show the "all languages (zip)" box (the transcript has translations). */
  offerAllTracks?: boolean;
  request: (choice: ExportChoice) => { url: string; init?: RequestInit };
  /** After the file was handed to the browser, with the answer's headers. */
  onDownloaded?: (headers: Headers) => void;
  className?: string;
}) {
  const { t } = useTranslation();
  const lockedLabel = useLockedLabel();
  // This page's choice, else the one made last in this browser while the plan still allows
  // its format (the page works the same where storage is unavailable).
  const [saved, remember] = useStoredItem<ExportChoice>(OPTIONS_KEY, 'object');
  const [picked, setPicked] = useState<ExportChoice | null>(null);
  const choice: ExportChoice =
    picked ??
    (!isEmpty(saved) && saved && formats.includes(saved.format)
      ? {
          format: saved.format,
          timestamps: saved.timestamps !== false,
          segmentCues: saved.segmentCues === true,
          bilingual: saved.bilingual === true,
          allTracks: false,
        }
      : { ...DEFAULT_CHOICE, format: formats.includes('txt') ? 'txt' : (formats[0] ?? 'txt') });
  const change = (next: ExportChoice) => {
    setPicked(next);
    remember(next);
  };

  const run = async () => {
    const { url, init } = request({
      ...choice,
      bilingual: offerBilingual && choice.bilingual,
      allTracks: offerAllTracks && choice.allTracks,
    });
    try {
      // Not `onDownloaded?.(await …)`: an absent callback would skip the download itself.
      const headers = await downloadFile(url, init);
      onDownloaded?.(headers);
    } catch (err) {
      toast.error(
        err instanceof ApiClientError
          ? t(err.message, (err.data ?? {}) as Record<string, unknown>)
          : t('errors.requestError'),
      );
    }
  };

  return (
    <div className={className}>
      <div className="flex flex-wrap items-center gap-2">
        <select
          value={choice.format}
          onChange={(e) => change({ ...choice, format: e.target.value })}
          aria-label={t('workspace.format')}
          className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm"
          data-testid="export-format"
        >
          {formats.map((f) => (
            <option key={f} value={f}>
              {f.toUpperCase()}
            </option>
          ))}
          {locked.map((lock) => (
            <option key={lock.format} value={lock.format} disabled aria-disabled="true" data-locked>
              {lockedLabel(lock)}
            </option>
          ))}
        </select>
        {offerTimestamps && choice.format === 'txt' ? (
          <label className="flex items-center gap-1.5 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={choice.timestamps}
              onChange={(e) => change({ ...choice, timestamps: e.target.checked })}
              className="h-4 w-4 rounded border-slate-300"
            />
            {t('editor.withTimes')}
          </label>
        ) : null}
        {offerSegmentCues && (choice.format === 'srt' || choice.format === 'vtt') ? (
          <label className="flex items-center gap-1.5 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={choice.segmentCues}
              onChange={(e) => change({ ...choice, segmentCues: e.target.checked })}
              className="h-4 w-4 rounded border-slate-300"
            />
            {t('editor.oneCuePerSegment')}
          </label>
        ) : null}
        {offerBilingual && !choice.allTracks && (choice.format === 'srt' || choice.format === 'vtt') ? (
          <label className="flex items-center gap-1.5 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={choice.bilingual}
              onChange={(e) => change({ ...choice, bilingual: e.target.checked })}
              className="h-4 w-4 rounded border-slate-300"
              data-testid="export-bilingual"
            />
            {t('translation.bilingual')}
          </label>
        ) : null}
        {offerAllTracks ? (
          <label className="flex items-center gap-1.5 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={choice.allTracks}
              onChange={(e) => change({ ...choice, allTracks: e.target.checked })}
              className="h-4 w-4 rounded border-slate-300"
              data-testid="export-all-tracks"
            />
            {t('translation.allTracks')}
          </label>
        ) : null}
        <button
          type="button"
          className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50"
          onClick={() => void run()}
          data-testid="export"
        >
          {t('workspace.export')}
        </button>
      </div>
      <LockedFormats locked={locked} />
    </div>
  );
}
