import { useTranslation } from 'react-i18next';
import type { TranscriptJson } from '../../../common/transcript-types';
import { queueWait } from './queue-wait';
import { jobLabel, ProgressBar } from './status-badge';

/** Stages whose percent means something: the downloads, the transcription and its speakers. */
const MEASURED = new Set(['downloading', 'engine', 'transcribing', 'speakers']);

/**
 * What a queued or running job is doing: its stage, a bar that moves (a measured percent, or a
 * sweeping band for stages without one), the time left and, while it waits, the files ahead.
 */
export function JobProgress({ transcript }: { transcript: TranscriptJson }) {
  const { t } = useTranslation();
  const { status, stage, progress, remaining_sec: remaining } = transcript;
  const label = jobLabel(t, transcript);
  // A stage without a measure, or one that has not measured anything yet, sweeps instead of 0 %.
  const measured = MEASURED.has(stage ?? (status === 'processing' ? 'transcribing' : '')) && progress >= 1;
  const percent = measured ? progress : null;
  const details: string[] = [];
  const wait = queueWait(t, transcript);
  if (wait?.detail) details.push(wait.detail);
  if (status === 'processing' && typeof remaining === 'number' && remaining > 0)
    details.push(
      remaining < 60
        ? t('transcripts.timeLeft.soon')
        : t('transcripts.timeLeft.minutes', { count: Math.round(remaining / 60) }),
    );
  return (
    <div className="mb-4 rounded-xl border border-slate-200 bg-white p-4" data-testid="progress">
      <p className="mb-2 flex flex-wrap justify-between gap-x-3 text-sm text-slate-700">
        <span data-testid="progress-stage" data-stage={stage ?? status}>
          {wait ? wait.headline : label}
        </span>
        {details.length > 0 ? (
          <span className="text-slate-500" data-testid="progress-details">
            {details.join(' · ')}
          </span>
        ) : null}
      </p>
      <ProgressBar percent={percent} label={label} />
    </div>
  );
}
