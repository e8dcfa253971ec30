import { useTranslation } from 'react-i18next';
import type { TranscriptStatus } from '../../../common/transcript-types';

const STYLES: Record<TranscriptStatus, string> = {
  queued: 'bg-slate-100 text-slate-700',
  processing: 'bg-brand-50 text-brand-700',
  done: 'bg-emerald-50 text-emerald-700',
  failed: 'bg-red-50 text-red-700',
  canceled: 'bg-amber-50 text-amber-800',
};

export function StatusBadge({ status, progress }: { status: TranscriptStatus; progress: number }) {
  const { t } = useTranslation();
  return (
    <span
      data-status={status}
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ${STYLES[status]}`}
    >
      {status === 'processing' ? (
        <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-current" aria-hidden />
      ) : null}
      {t(`transcripts.status.${status}`, { progress })}
    </span>
  );
}

export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-100"
    >
      <div
        className="h-full rounded-full bg-brand-500 transition-[width] duration-300"
        style={{ width: `${value}%` }}
      />
    </div>
  );
}
