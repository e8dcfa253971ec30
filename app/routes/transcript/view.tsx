import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Route } from './+types/view';
import { notFound, requireUuid } from '../../lib/not-found';
import { pageMeta } from '../../lib/meta';
import { api } from '../../lib/api';
import { useLocalePath } from '../../lib/use-locale';
import { useTranscriptLive } from '../../lib/use-transcript-live';
import { formatDate, formatDuration, formatTime } from '../../../common/format';
import { ACTIVE_STATUSES, type TranscriptJson } from '../../../common/transcript-types';
import { PageFrame } from '../../components/layout/page-frame';
import { ProgressBar, StatusBadge } from '../../components/transcripts/status-badge';
import { useLanguageName } from '../../components/transcripts/language-select';

// A malformed id fails route validation (fatal 404); a well-formed id that names nothing the
// user owns is an ordinary 404.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = requireUuid(params.id, request);
  const transcript = await context.getTranscript(id);
  if (!transcript) throw notFound('unknown', new URL(request.url).pathname);
  return { transcript };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.transcript.title', { noindex: true });

function Player({
  t,
  onTime,
  playerRef,
}: {
  t: TranscriptJson;
  onTime(s: number): void;
  playerRef: React.RefObject<HTMLMediaElement | null>;
}) {
  if (!t.media) return null;
  const common = {
    src: t.media.url,
    controls: true,
    preload: 'metadata' as const,
    onTimeUpdate: (e: React.SyntheticEvent<HTMLMediaElement>) => onTime(e.currentTarget.currentTime),
    className: 'w-full rounded-xl bg-black',
  };
  return t.media.has_video ? (
    <video ref={playerRef as React.RefObject<HTMLVideoElement>} {...common} playsInline />
  ) : (
    <audio ref={playerRef as React.RefObject<HTMLAudioElement>} {...common} className="w-full" />
  );
}

export default function TranscriptView({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const nameOf = useLanguageName();
  const transcript = useTranscriptLive(loaderData.transcript);
  const player = useRef<HTMLMediaElement | null>(null);
  const [time, setTime] = useState(0);
  const [busy, setBusy] = useState(false);
  const active = ACTIVE_STATUSES.includes(transcript.status);
  const segments = transcript.segments ?? [];
  const current = segments.findIndex((s) => time >= s.start && time < s.end);
  const currentRow = useRef<HTMLLIElement | null>(null);

  useEffect(() => {
    currentRow.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [current]);

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
      await api.post(`/self-api/v1/transcripts/${transcript.id}/${action}`);
      void revalidator.revalidate();
    } catch {
      // the API client has shown the translated error
    } finally {
      setBusy(false);
    }
  };

  const seek = (seconds: number) => {
    if (!player.current) return;
    player.current.currentTime = seconds;
    void player.current.play().catch(() => undefined);
  };

  const language =
    transcript.detected_language ?? (transcript.language === 'auto' ? null : transcript.language);
  const button =
    'rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

  return (
    <PageFrame
      heading={transcript.name}
      subtitle={
        <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <StatusBadge status={transcript.status} progress={transcript.progress} />
          <span>{formatDate(Date.parse(transcript.created_at) / 1000)}</span>
          {transcript.duration !== null ? <span>{formatDuration(transcript.duration)}</span> : null}
          {language ? <span>{nameOf(language)}</span> : null}
          {transcript.source === 'import' ? <span>{t('pages.transcript.imported')}</span> : null}
        </span>
      }
      actions={
        <div className="flex flex-wrap gap-2">
          <Link to={to('/dashboard')} className={button}>
            {t('pages.transcript.back')}
          </Link>
          {active ? (
            <button type="button" className={button} disabled={busy} onClick={() => void act('cancel')}>
              {t('pages.transcript.cancel')}
            </button>
          ) : null}
          {(transcript.status === 'failed' || transcript.status === 'canceled') &&
          transcript.source === 'upload' ? (
            <button type="button" className={button} disabled={busy} onClick={() => void act('retry')}>
              {t('pages.transcript.retry')}
            </button>
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
      }
    >
      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <div className="lg:sticky lg:top-20 lg:self-start">
          <Player t={transcript} onTime={setTime} playerRef={player} />
          {!transcript.media ? (
            <p className="text-sm text-slate-500">{t('pages.transcript.noMedia')}</p>
          ) : null}
        </div>
        <div>
          {active ? (
            <div className="mb-4 rounded-xl border border-slate-200 bg-white p-4" data-testid="progress">
              <p className="mb-2 text-sm text-slate-700">
                {transcript.status === 'queued'
                  ? t('pages.transcript.queuedHint')
                  : t('pages.transcript.processingHint')}
              </p>
              <ProgressBar
                percent={transcript.progress}
                label={t('transcripts.status.processing', { progress: transcript.progress })}
              />
            </div>
          ) : null}
          {transcript.status === 'failed' && transcript.error ? (
            <div
              role="alert"
              className="mb-4 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800"
            >
              <p className="font-semibold">{t('pages.transcript.failedTitle')}</p>
              <p className="mt-1">{t(transcript.error.message)}</p>
            </div>
          ) : null}
          {segments.length > 0 ? (
            <ol className="space-y-1" data-testid="segments">
              {segments.map((s, i) => (
                <li key={`${i}-${s.start}`} ref={i === current ? currentRow : undefined}>
                  <button
                    type="button"
                    onClick={() => seek(s.start)}
                    className={`flex w-full gap-3 rounded-lg px-3 py-2 text-left hover:bg-slate-50 ${i === current ? 'bg-brand-50' : ''}`}
                  >
                    <span className="w-14 shrink-0 pt-0.5 font-mono text-xs text-slate-500 tabular-nums">
                      {formatTime(s.start)}
                    </span>
                    <span className="text-slate-800">{s.text}</span>
                  </button>
                </li>
              ))}
            </ol>
          ) : transcript.status === 'done' ? (
            <p className="text-sm text-slate-500">{t('pages.transcript.empty')}</p>
          ) : active ? (
            <p className="text-sm text-slate-500">{t('pages.transcript.waitingSegments')}</p>
          ) : null}
        </div>
      </div>
    </PageFrame>
  );
}
