import { useEffect, useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ACTIVE_STATUSES, type TranscriptJson } from '../../../common/transcript-types';
import { api } from '../../lib/api';
import { useLocalePath } from '../../lib/use-locale';

const button =
  'rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

/** The transcript's name; a click turns it into a text box that saves on Enter or leaving it. */
export function RenameTitle({
  transcript,
  onRenamed,
}: {
  transcript: TranscriptJson;
  onRenamed: (t: TranscriptJson) => void;
}) {
  const { t } = useTranslation();
  const [renaming, setRenaming] = useState(false);

  const rename = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const name = String(new FormData(e.currentTarget).get('name') ?? '').trim();
    setRenaming(false);
    if (!name || name === transcript.name) return;
    try {
      onRenamed(await api.patch<TranscriptJson>(`/self-api/v1/transcripts/${transcript.id}`, { name }));
    } catch {
      // shown by the API client
    }
  };

  // The tab shows the name; a rename updates it at once (the page's loader is not asked again).
  useEffect(() => {
    const [, ...rest] = document.title.split(' | ');
    if (rest.length > 0) document.title = [transcript.name, ...rest].join(' | ');
  }, [transcript.name]);

  return renaming ? (
    <form method="post" onSubmit={(e) => void rename(e)} className="flex gap-2">
      <input
        name="name"
        defaultValue={transcript.name}
        maxLength={200}
        autoFocus
        aria-label={t('editor.rename')}
        onBlur={(e) => e.currentTarget.form?.requestSubmit()}
        onKeyDown={(e) => e.key === 'Escape' && setRenaming(false)}
        className="w-full rounded-lg border border-slate-300 px-3 py-1 text-2xl font-bold"
      />
    </form>
  ) : (
    <button
      type="button"
      onClick={() => setRenaming(true)}
      className="group/title inline-flex max-w-full items-start gap-2 text-left [overflow-wrap:anywhere] hover:text-brand-700"
      title={t('editor.renameHint', { name: transcript.name })}
      data-testid="rename-title"
    >
      <span className="decoration-slate-300 decoration-dashed underline-offset-4 group-hover/title:underline">
        {transcript.name}
      </span>
      {/* A pencil: the name can be edited. */}
      <svg
        aria-hidden
        viewBox="0 0 20 20"
        fill="currentColor"
        className="mt-1.5 h-5 w-5 shrink-0 text-slate-400 group-hover/title:text-brand-600 sm:mt-2"
      >
        <path d="M13.59 3.59a2 2 0 0 1 2.82 2.82l-8.5 8.5-3.6.78.78-3.6 8.5-8.5Z" />
      </svg>
      <span className="sr-only">{t('editor.rename')}</span>
    </button>
  );
}

/**
 * Speech detection skipped what it took for silence or music: if words are missing, the whole
 * recording is transcribed again (edits are replaced, minutes are not charged twice).
 */
export function TranscribeAll({ transcript }: { transcript: TranscriptJson }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    if (!window.confirm(t('pages.transcript.transcribeAllConfirm'))) return;
    setBusy(true);
    try {
      await api.post(`/self-api/v1/transcripts/${transcript.id}/retry`, { detect_speech: false });
      void revalidator.revalidate();
    } catch {
      // the API client has shown the translated error
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
      <span>{t('pages.transcript.transcribeAllHint')}</span>
      <button
        type="button"
        className={button}
        disabled={busy}
        onClick={() => void run()}
        data-testid="transcribe-all"
      >
        {t('pages.transcript.transcribeAll')}
      </button>
    </div>
  );
}

/** Back to the dashboard, and cancel, retry or delete as the transcript's state allows. */
export function TranscriptActions({ transcript }: { transcript: TranscriptJson }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  // "Try again" may run without identifying speakers (the option is switched off here).
  const [withSpeakers, setWithSpeakers] = useState(transcript.detect_speakers);

  const act = async (action: 'cancel' | 'retry' | 'delete') => {
    if (action === 'delete' && !window.confirm(t('pages.transcript.confirmDelete'))) return;
    setBusy(true);
    try {
      if (action === 'delete') {
        await api.del(`/self-api/v1/transcripts/${transcript.id}`);
        toast.success(t('pages.transcript.deleted'));
        void navigate(to('/dashboard'));
        return;
      }
      await api.post(
        `/self-api/v1/transcripts/${transcript.id}/${action}`,
        action === 'retry' && transcript.detect_speakers ? { detect_speakers: withSpeakers } : undefined,
      );
      void revalidator.revalidate();
    } catch {
      // the API client has shown the translated error
    } finally {
      setBusy(false);
    }
  };

  const retryable =
    (transcript.status === 'failed' || transcript.status === 'canceled') && transcript.source === 'upload';
  return (
    <div className="flex flex-wrap gap-2">
      <Link to={to('/dashboard')} className={button}>
        {t('pages.transcript.back')}
      </Link>
      {ACTIVE_STATUSES.includes(transcript.status) ? (
        <button type="button" className={button} disabled={busy} onClick={() => void act('cancel')}>
          {t('pages.transcript.cancel')}
        </button>
      ) : null}
      {retryable ? (
        <span className="flex flex-wrap items-center gap-2">
          <button type="button" className={button} disabled={busy} onClick={() => void act('retry')}>
            {t('pages.transcript.retry')}
          </button>
          {transcript.detect_speakers ? (
            <label className="flex items-center gap-1.5 text-sm text-slate-700">
              <input
                type="checkbox"
                checked={withSpeakers}
                onChange={(e) => setWithSpeakers(e.currentTarget.checked)}
                data-testid="retry-speakers"
              />
              {t('transcripts.upload.detectSpeakers')}
            </label>
          ) : null}
        </span>
      ) : null}
      <button
        type="button"
        className={`${button} text-red-700`}
        disabled={busy}
        onClick={() => void act('delete')}
      >
        {t('pages.transcript.delete')}
      </button>
    </div>
  );
}
