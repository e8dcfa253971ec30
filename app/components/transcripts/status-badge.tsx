import { useTranslation } from 'react-i18next';
import type { TranscriptStage, TranscriptStatus } from '../../../common/transcript-types';

const STYLES: Record<TranscriptStatus, string> = {
  queued: 'bg-slate-100 text-slate-700',
  processing: 'bg-brand-50 text-brand-700',
  done: 'bg-emerald-50 text-emerald-700',
  failed: 'bg-red-50 text-red-700',
  canceled: 'bg-amber-50 text-amber-800',
};

type T = (key: string, options?: Record<string, unknown>) => string;

/** What a job is doing, in words: its stage when it has one, else its status. */
export function jobLabel(
  t: T,
  job: { status: TranscriptStatus; progress: number; stage?: TranscriptStage | null },
): string {
  const { status, progress, stage } = job;
  // A download whose size is unknown (or not begun) has no percent to show.
  if (stage === 'downloading' && (status === 'queued' || progress < 1))
    return t('transcripts.stage.downloadingStart');
  if ((status === 'queued' && stage === 'engine') || (status === 'processing' && stage))
    return t(`transcripts.stage.${stage}`, { progress });
  return t(`transcripts.status.${status}`, { progress });
}

export function StatusBadge({
  status,
  progress,
  stage,
}: {
  status: TranscriptStatus;
  progress: number;
  stage?: TranscriptStage | null;
}) {
  const { t } = useTranslation();
  return (
    <span
      data-status={status}
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ${STYLES[status]}`}
    >
      {status === 'processing' ? (
        <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-current" aria-hidden />
      ) : null}
      {jobLabel(t, { status, progress, stage })}
    </span>
  );
}

/**
 * A progress bar; `percent` null is a stage without a measure (preparing, detecting, saving): the
 * bar moves without a value instead of showing 0 %.
 */
export function ProgressBar({ percent, label }: { percent: number | null; label: string }) {
  const value = percent === null ? null : Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value ?? undefined}
      aria-valuetext={value === null ? label : undefined}
      className="relative h-2 w-full overflow-hidden rounded-full bg-slate-100"
    >
      {value === null ? (
        <div className="absolute inset-y-0 w-1/3 animate-indeterminate rounded-full bg-brand-500/70 motion-reduce:left-1/3 motion-reduce:animate-none" />
      ) : (
        <div
          className="h-full rounded-full bg-brand-500 transition-[width] duration-700 ease-linear"
          style={{ width: `${value}%` }}
        />
      )}
    </div>
  );
}
