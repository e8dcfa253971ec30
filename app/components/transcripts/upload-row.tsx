import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TranscriptJson } from '../../../common/transcript-types';
import { useFormat } from '../../lib/use-format';
import { useLocalePath } from '../../lib/use-locale';
import type { UploadItem } from '../../lib/use-uploads';
import { StatusBadge, ProgressBar } from './status-badge';

export function UploadRow({
  item,
  live,
  onCancel,
  onDismiss,
}: {
  item: UploadItem;
  /** The transcript as the list shows it now (its job moves on after the upload). */
  live?: TranscriptJson;
  onCancel(): void;
  onDismiss(): void;
}) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const fmt = useFormat();
  const active = item.phase === 'uploading' || item.phase === 'creating';
  const transcript = live ?? item.transcript;
  // A stored file that is not usable media, or a job that failed since, shows its reason.
  const refused = transcript?.status === 'failed' ? transcript.error : null;
  const failed = item.phase === 'failed' || !!refused;
  const message =
    item.phase === 'failed'
      ? item.error
      : refused
        ? t(refused.message)
        : item.kind === 'link'
          ? t('transcripts.link.source')
          : t(`transcripts.upload.phase.${transcript?.source === 'import' ? 'imported' : item.phase}`, {
              percent: item.percent,
              size: fmt.fileSize(item.size),
            });
  return (
    <li className="rounded-lg border border-slate-200 bg-white px-4 py-3" data-upload={item.phase}>
      <div className="flex items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate text-sm font-medium text-slate-900" title={item.name}>
            {item.name}
          </p>
          <p
            className={`text-xs ${failed ? 'text-red-700' : 'text-slate-500'}`}
            role={failed ? 'alert' : undefined}
          >
            {message}
          </p>
          {item.phase === 'failed' && item.planLimit ? (
            <Link to={to('/pricing')} className="text-xs font-semibold text-brand-700 hover:underline">
              {t('billing.seePlans')}
            </Link>
          ) : null}
        </div>
        {transcript && transcript.source !== 'import' && !refused ? (
          // The job's own state, as the list shows it: the row never says more than it knows.
          <StatusBadge status={transcript.status} progress={transcript.progress} stage={transcript.stage} />
        ) : null}
        {active ? (
          <button
            type="button"
            onClick={onCancel}
            className="shrink-0 rounded-md px-2 py-1 text-sm text-slate-600 hover:bg-slate-100"
          >
            {t('common.cancel')}
          </button>
        ) : (
          <div className="flex shrink-0 items-center gap-1">
            {item.transcript ? (
              <Link
                to={to(`/transcript/${item.transcript.id}`)}
                className="rounded-md px-2 py-1 text-sm font-medium text-brand-600 hover:bg-brand-50"
              >
                {t('transcripts.open')}
              </Link>
            ) : null}
            {/* Finished and failed rows can be cleared from the list (the transcript stays). */}
            <button
              type="button"
              onClick={onDismiss}
              aria-label={t('transcripts.upload.dismiss', { name: item.name })}
              title={t('common.close')}
              data-testid="upload-dismiss"
              className="rounded-md px-2 py-1 text-lg leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800"
            >
              ×
            </button>
          </div>
        )}
      </div>
      {item.phase === 'uploading' ? (
        <div className="mt-2">
          <ProgressBar
            percent={item.percent}
            label={t('transcripts.upload.progressLabel', { name: item.name })}
          />
        </div>
      ) : null}
    </li>
  );
}
