import { useTranslation } from 'react-i18next';
import type { InsightJson } from '../../../common/insights';
import { partialStrings } from '../../../common/partial-json';

/** Where a queued or running output is, and the text the model has written so far. */
export function InsightProgress({ insight, streamed }: { insight: InsightJson; streamed: string }) {
  const { t } = useTranslation();
  const label =
    insight.status === 'queued'
      ? t('ai.stage.queued')
      : insight.stage === 'preparing'
        ? t('ai.stage.preparing', { percent: insight.progress })
        : insight.stage === 'merging'
          ? t('ai.stage.merging')
          : t('ai.stage.reading', { percent: insight.progress });
  const pieces = partialStrings(streamed).filter((p) => p.key !== 'owner' && p.key !== 'due' && p.value);
  return (
    <div className="space-y-2" data-testid="ai-progress">
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <span aria-hidden className="size-2 animate-pulse rounded-full bg-brand-500" />
        {label}
      </p>
      {pieces.length > 0 ? (
        <div aria-live="polite" data-testid="ai-stream" className="space-y-1 text-sm text-slate-500">
          {pieces.map((p, i) => (
            <p key={i} className={p.key === 'title' ? 'font-medium text-slate-700' : undefined}>
              {p.value}
              {i === pieces.length - 1 ? (
                <span aria-hidden className="ml-0.5 animate-pulse">
                  ▍
                </span>
              ) : null}
            </p>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** Why an output failed, in words a person can act on. */
export function InsightFailed({ insight }: { insight: InsightJson }) {
  const { t } = useTranslation();
  const unavailable = ['model_missing', 'model_unavailable', 'model_invalid', 'unreachable'].includes(
    insight.error_code ?? '',
  );
  return (
    <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
      {unavailable ? t('ai.failedModel') : t('ai.failed')}
    </p>
  );
}

/** The transcript was edited after the output was made. */
export function StaleNote({ onRegenerate, busy }: { onRegenerate: () => void; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      data-testid="ai-stale"
      className="flex flex-wrap items-center gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900"
    >
      <span>{t('ai.stale')}</span>
      <button
        type="button"
        disabled={busy}
        onClick={onRegenerate}
        className="font-medium text-amber-900 underline hover:no-underline disabled:opacity-50"
      >
        {t('ai.regenerate')}
      </button>
    </div>
  );
}
