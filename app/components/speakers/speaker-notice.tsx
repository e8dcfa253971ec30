import { useEffect, useState } from 'react';
import { useRevalidator } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TranscriptJson } from '../../../common/transcript-types';
import { api } from '../../lib/api';

/** While speakers are being identified, the page looks for the result this often. */
const FOLLOW_MS = 3000;

const button =
  'rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

/**
 * What the page says about a finished transcript's speakers, and the action that identifies them:
 * asked for but not identified (why, and "Identify speakers"), being identified (followed until
 * done), or none yet ("Identify speakers" beside the text).
 */
export function SpeakerNotice({ transcript, editable }: { transcript: TranscriptJson; editable: boolean }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const note = transcript.speaker_note;

  useEffect(() => {
    if (note !== 'identifying') return;
    const timer = setInterval(() => void revalidator.revalidate(), FOLLOW_MS);
    return () => clearInterval(timer);
  }, [note, revalidator]);

  if (transcript.status !== 'done' || !transcript.media) return null;
  const identify = async () => {
    setBusy(true);
    try {
      await api.post(`/self-api/v1/transcripts/${transcript.id}/speakers/identify`, {
        speaker_count: transcript.speaker_count,
      });
      void revalidator.revalidate();
    } catch {
      // the API client has shown the translated error
    } finally {
      setBusy(false);
    }
  };
  const action = editable ? (
    <button
      type="button"
      className={button}
      disabled={busy}
      onClick={() => void identify()}
      data-testid="identify-speakers"
    >
      {t('pages.transcript.identifySpeakers')}
    </button>
  ) : null;

  if (note === 'identifying')
    return (
      <p className="mb-3 text-sm text-slate-600" role="status" data-testid="speaker-note" data-note={note}>
        {t('pages.transcript.speakerNote.identifying')}
      </p>
    );
  if (note === 'unavailable' || note === 'failed')
    return (
      <div
        role="status"
        className="mb-3 flex flex-wrap items-center justify-between gap-2 rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        data-testid="speaker-note"
        data-note={note}
      >
        <p className="min-w-0 flex-1">{t(`pages.transcript.speakerNote.${note}`)}</p>
        {action}
      </div>
    );
  if ((transcript.speakers?.length ?? 0) > 0 || !action) return null;
  return <div className="mb-3 flex justify-end">{action}</div>;
}
