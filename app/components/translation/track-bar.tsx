import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TrackJson } from '../../../common/translation-types';
import { ProgressBar } from '../transcripts/status-badge';
import { useTrackLanguageName } from './track-names';

const chip =
  'inline-flex items-center gap-1.5 rounded-md px-2.5 py-1 text-sm font-medium whitespace-nowrap aria-[current=true]:bg-white aria-[current=true]:text-brand-800 aria-[current=true]:shadow-sm text-slate-600 hover:text-slate-900';

/** The page's address with ?track=<code> (or without it, for the original); other params kept. */
export function trackHref(search: string, code: string | null): string {
  const params = new URLSearchParams(search);
  params.delete('track');
  // A segment link points into one text; switching languages keeps it (same segments).
  if (code) params.set('track', code);
  const query = params.toString();
  return query ? `?${query}` : '?';
}

/**
 * Original | 日本語 | Español …: which text the page shows and exports (in the address, so it can
 * be linked), with Translate beside it. A track being made shows its progress; a failed one its
 * reason and Try again.
 */
export function TrackBar({
  tracks,
  selected,
  onTranslate,
  onGlossary,
  onRetry,
}: {
  tracks: TrackJson[];
  /** The track shown; null: the original. */
  selected: TrackJson | null;
  /** Opens the translate dialog; absent when the role may not translate. */
  onTranslate?: () => void;
  /** Opens the workspace's glossary. */
  onGlossary?: () => void;
  onRetry?: (track: TrackJson) => void;
}) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const nameOf = useTrackLanguageName();
  const busy = selected && (selected.status === 'queued' || selected.status === 'running');
  if (tracks.length === 0 && !onTranslate) return null;
  return (
    <div className="mb-3 space-y-2" data-testid="track-bar">
      <div className="flex flex-wrap items-center gap-2">
        {tracks.length > 0 ? (
          <nav
            aria-label={t('translation.tracks')}
            className="flex max-w-full gap-0.5 overflow-x-auto rounded-lg bg-slate-100 p-0.5"
          >
            <Link
              to={trackHref(search, null)}
              replace
              preventScrollReset
              aria-current={selected === null}
              className={chip}
              data-track="original"
            >
              {t('translation.original')}
            </Link>
            {tracks.map((k) => (
              <Link
                key={k.id}
                to={trackHref(search, k.language)}
                replace
                preventScrollReset
                aria-current={selected?.id === k.id}
                className={chip}
                data-track={k.language}
                title={k.native_name}
              >
                {nameOf(k.language)}
                {k.status === 'queued' || k.status === 'running' ? (
                  <span className="text-xs text-slate-500 tabular-nums">{Math.round(k.progress)}%</span>
                ) : k.status === 'failed' || k.status === 'canceled' ? (
                  <span aria-label={t('translation.status.failed')} className="text-xs text-red-600">
                    !
                  </span>
                ) : null}
              </Link>
            ))}
          </nav>
        ) : null}
        {onTranslate ? (
          <button
            type="button"
            onClick={onTranslate}
            className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
            data-testid="translate-open"
          >
            {t('translation.translate')}
          </button>
        ) : null}
        {onGlossary ? (
          <button
            type="button"
            onClick={onGlossary}
            className="rounded-lg px-2 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            data-testid="glossary-open"
          >
            {t('translation.glossary.open')}
          </button>
        ) : null}
      </div>
      {selected && busy ? (
        <div className="rounded-xl border border-slate-200 bg-white p-3" data-testid="track-progress">
          <p className="mb-2 text-sm text-slate-700">
            {selected.status === 'queued'
              ? t('translation.queued', { language: nameOf(selected.language) })
              : t('translation.running', {
                  language: nameOf(selected.language),
                  percent: Math.round(selected.progress),
                })}
          </p>
          <ProgressBar
            percent={selected.status === 'running' ? selected.progress : null}
            label={t('translation.status.running')}
          />
        </div>
      ) : null}
      {selected && (selected.status === 'failed' || selected.status === 'canceled') ? (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-800"
          data-testid="track-failed"
        >
          <p className="min-w-0 flex-1">
            <span className="font-semibold">
              {t('translation.failed', { language: nameOf(selected.language) })}
            </span>{' '}
            {t(`errors.translation.reasons.${selected.error ?? 'internal'}`, {
              defaultValue: t('errors.translation.reasons.internal'),
            })}
          </p>
          {onRetry ? (
            <button
              type="button"
              onClick={() => onRetry(selected)}
              className="rounded-lg border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-100"
            >
              {t('translation.retry')}
            </button>
          ) : null}
        </div>
      ) : null}
      {selected?.status === 'done' && selected.stale ? (
        <p className="text-sm text-amber-800" data-testid="track-stale">
          {t('translation.stale')}
        </p>
      ) : null}
    </div>
  );
}
