import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { translationLanguage } from '../../../common/translation-languages';
import type { TrackJson } from '../../../common/translation-types';
import type { Tracks } from '../../lib/use-tracks';
import { useFormat } from '../../lib/use-format';
import { useLocalePath } from '../../lib/use-locale';
import { LanguagePicker } from './language-picker';
import { Modal } from './modal';
import { useTrackLanguageName } from './track-names';

const primary =
  'rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50';

/**
 * Translate the transcript: pick a language from the searchable list, see what the plan has left
 * this month against what this transcript costs, start. The new track then shows its progress
 * on the page (the dialog closes).
 */
export function TranslateDialog({
  open,
  onClose,
  tracks,
  sourceChars,
  onStarted,
}: {
  open: boolean;
  onClose: () => void;
  tracks: Tracks;
  /** Characters of the original: what a translation charges. */
  sourceChars: number;
  onStarted: (track: TrackJson) => void;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const to = useLocalePath();
  const localName = useTrackLanguageName();
  const [picked, setPicked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { quota, reload } = tracks;
  // Opened: the plan's characters as they are now (another tab or a teammate may have used some).
  useEffect(() => {
    if (open) void reload();
  }, [open, reload]);
  const locked = quota?.limit === 0;
  const short = quota?.left != null && quota.limit !== 0 && sourceChars > quota.left;
  const existing = picked ? tracks.byLanguage.get(picked.toLowerCase()) : undefined;
  const running = existing?.status === 'queued' || existing?.status === 'running';
  const canStart = !!picked && !locked && !short && !running && !busy;

  const start = async () => {
    if (!canStart || !picked) return;
    setBusy(true);
    try {
      const track = await tracks.create(picked);
      setPicked(null);
      onStarted(track);
    } catch {
      // the API client has shown the translated reason
    } finally {
      setBusy(false);
    }
  };

  const name = picked ? localName(picked) : '';
  return (
    <Modal open={open} onClose={onClose} title={t('translation.dialogTitle')} testId="translate-dialog">
      <p className="mb-3 text-sm text-slate-600">{t('translation.dialogIntro')}</p>
      {locked ? (
        <p className="mb-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900" data-testid="translate-locked">
          {t('translation.locked')}{' '}
          <Link to={to('/pricing')} className="font-semibold text-brand-700 hover:underline">
            {t('billing.seePlans')}
          </Link>
        </p>
      ) : (
        <div className="mb-3 flex h-[min(22rem,50dvh)] flex-col">
          <LanguagePicker
            value={picked}
            onPick={setPicked}
            onConfirm={() => void start()}
            localName={localName}
            tracks={tracks.byLanguage}
          />
        </div>
      )}
      <div className="space-y-1 text-sm text-slate-600" data-testid="translate-quota">
        <p>{t('translation.cost', { chars: fmt.number(sourceChars) })}</p>
        {quota && !locked ? (
          <p>
            {quota.left === null
              ? t('translation.quotaUnlimited')
              : t('translation.quotaLeft', {
                  left: fmt.number(quota.left),
                  limit: fmt.number(quota.limit ?? 0),
                })}
          </p>
        ) : null}
        {short ? (
          <p className="text-red-700" role="alert">
            {t('translation.quotaShort')}{' '}
            <Link to={to('/pricing')} className="font-semibold text-brand-700 hover:underline">
              {t('billing.seePlans')}
            </Link>
          </p>
        ) : null}
        {existing?.status === 'done' ? <p>{t('translation.again', { language: name })}</p> : null}
        {running ? <p>{t('translation.inProgress', { language: name })}</p> : null}
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-end gap-2">
        <button
          type="button"
          onClick={onClose}
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
        >
          {t('translation.cancel')}
        </button>
        <button
          type="button"
          className={primary}
          disabled={!canStart}
          onClick={() => void start()}
          data-testid="translate-start"
        >
          {picked && translationLanguage(picked)
            ? t('translation.startInto', { language: name })
            : t('translation.start')}
        </button>
      </div>
    </Modal>
  );
}
