import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { RENDER_PREVIEW_SECONDS, type RenderRequestInput } from '../../../common/render-options';
import type { TranscriptJson } from '../../../common/transcript-types';
import { apiUrl } from '../../lib/api';
import { useApiGet } from '../../lib/use-api-get';
import { useFormat } from '../../lib/use-format';
import { useLocalePath } from '../../lib/use-locale';
import { renderLive, useRenders, type RenderItem, type RenderQuota } from '../../lib/use-renders';
import { LockIcon } from '../transcripts/locked-formats';
import { useLanguageName } from '../transcripts/language-select';
import { RenderBackgroundFields } from './render-background';
import { RenderList, RenderProgress } from './render-list';
import {
  defaultChoices,
  RenderShapeFields,
  RenderStyleFields,
  type RenderChoices,
} from './render-style-fields';

interface TrackSummary {
  id: string;
  language: string;
  native_name: string;
  status: string;
}

const primary =
  'rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50';
const secondary =
  'rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50';

function request(choices: RenderChoices): RenderRequestInput {
  const { shape, fit, track, background, background_image, ...style } = choices;
  return { track, shape, fit, background, background_image, style };
}

/** Minutes left this month, the plan's cap, the mark on Free, and a lock when nothing is left. */
function QuotaLine({ quota }: { quota: RenderQuota }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const to = useLocalePath();
  const empty = quota.minutes_left !== null && quota.minutes_left <= 0;
  return (
    <div className="space-y-1 text-xs leading-5 text-slate-600" data-testid="render-quota">
      <p>
        {quota.minutes_left === null
          ? t('render.quotaUnlimited', { resolution: quota.max_resolution })
          : t('render.quota', {
              left: fmt.number(quota.minutes_left, 1),
              total: fmt.number(quota.minutes_per_month ?? 0),
              resolution: quota.max_resolution,
            })}
      </p>
      {empty ? (
        <p className="font-medium text-amber-800" data-testid="render-locked">
          <LockIcon className="mr-1 inline h-3.5 w-3.5 align-[-2px]" />
          {t('render.quotaEmpty')}{' '}
          <Link to={to('/pricing')} className="whitespace-nowrap text-brand-700 underline">
            {t('exportLock.seePlans')}
          </Link>
        </p>
      ) : null}
      {quota.watermark ? (
        <p data-testid="render-mark-notice">
          {t('render.markNotice')}{' '}
          <Link to={to('/pricing')} className="whitespace-nowrap text-brand-700 underline">
            {t('exportLock.seePlans')}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

/**
 * "Captioned video": the style (preset cards, font, size, colours, position, lines, speaker
 * colours), the shape, the captions' track and an audio-only source's background; a 3-second
 * preview rendered by the server from where the player stands; then the render with its
 * progress, a cancel and the download, above the transcript's past renders.
 */
export function RenderDialog({
  transcript,
  time,
  track,
  canEditBackground,
  open,
  onClose,
}: {
  transcript: TranscriptJson;
  /** The player's position: where the preview starts. */
  time: number;
  /** The track the page shows (a finished translation's id, or 'original'): chosen at each opening. */
  track: string;
  /** The member may replace the workspace's background picture (editors and up). */
  canEditBackground: boolean;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const nameOf = useLanguageName();
  const ref = useRef<HTMLDialogElement | null>(null);
  const [choices, setChoices] = useState<RenderChoices>(() => defaultChoices());
  const renders = useRenders(transcript.id, open);
  const tracks = useApiGet<{ items: TrackSummary[] }>(
    open ? `/self-api/v1/transcripts/${transcript.id}/translations` : null,
  );
  const doneTracks = (tracks?.items ?? []).filter((tr) => tr.status === 'done');
  const [previewId, setPreviewId] = useState<string | null>(null);
  const [mainId, setMainId] = useState<string | null>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);
  // Each opening captions what the page is showing (the original or the translation on screen):
  // adjusted while rendering when the dialog opens or the page's track changes.
  const [shownTrack, setShownTrack] = useState<string | null>(null);
  const opening = open ? track : null;
  if (opening !== shownTrack) {
    setShownTrack(opening);
    if (opening !== null) setChoices((c) => ({ ...c, track: opening }));
  }

  const items = useMemo(() => renders.items ?? [], [renders.items]);
  const preview = items.find((r) => r.id === previewId) ?? null;
  const current: RenderItem | null =
    items.find((r) => r.id === mainId) ?? items.find((r) => !r.preview && renderLive(r)) ?? null;
  const running = items.some(renderLive);
  const empty = renders.quota?.minutes_left !== null && (renders.quota?.minutes_left ?? 1) <= 0;
  const duration = transcript.duration ?? 0;
  // The preview starts where the player is, moved back so all its seconds are inside the media.
  const previewStart = Math.max(0, Math.min(time, duration - RENDER_PREVIEW_SECONDS));
  const language =
    transcript.detected_language ?? (transcript.language === 'auto' ? null : transcript.language);
  const hasVideo = transcript.media?.has_video ?? false;

  const makePreview = async () => {
    const row = await renders.start({ ...request(choices), preview: true, start: previewStart });
    if (row) setPreviewId(row.id);
  };
  const makeVideo = async () => {
    const row = await renders.start(request(choices));
    if (row) setMainId(row.id);
  };

  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="render-title"
      data-testid="render-dialog"
      className="m-auto h-full max-h-full w-full max-w-full bg-white p-0 text-left backdrop:bg-slate-900/50 sm:h-auto sm:max-h-[calc(100vh-2rem)] sm:max-w-3xl sm:rounded-xl sm:shadow-xl"
    >
      {open ? (
        <form method="post" onSubmit={(e) => e.preventDefault()} className="flex h-full flex-col">
          <header className="flex items-start justify-between gap-3 border-b border-slate-200 px-4 py-3 sm:px-5">
            <div className="min-w-0">
              <h2 id="render-title" className="text-lg font-semibold text-slate-900">
                {t('render.title')}
              </h2>
              <p className="text-sm text-slate-600">{t('render.intro')}</p>
            </div>
            <button
              type="button"
              onClick={onClose}
              className="rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
              data-testid="render-close"
            >
              <svg aria-hidden viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
                <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
              </svg>
              <span className="sr-only">{t('common.close')}</span>
            </button>
          </header>
          <div className="min-h-0 flex-1 space-y-5 overflow-y-auto px-4 py-4 sm:px-5">
            {renders.quota ? <QuotaLine quota={renders.quota} /> : null}
            <RenderStyleFields choices={choices} onChange={setChoices} />
            <RenderShapeFields choices={choices} onChange={setChoices} />
            <div className="grid gap-3 sm:grid-cols-2">
              <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
                {t('render.track')}
                <select
                  className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-800"
                  value={choices.track}
                  onChange={(e) => setChoices({ ...choices, track: e.target.value })}
                  data-testid="render-track"
                >
                  <option value="original">
                    {language
                      ? t('render.trackOriginalIn', { language: nameOf(language) })
                      : t('render.trackOriginal')}
                  </option>
                  {doneTracks.map((tr) => (
                    <option key={tr.id} value={tr.id}>
                      {tr.native_name}
                    </option>
                  ))}
                </select>
              </label>
              {!hasVideo ? (
                <RenderBackgroundFields choices={choices} onChange={setChoices} canEdit={canEditBackground} />
              ) : null}
            </div>

            <section
              className="rounded-lg border border-slate-200 bg-slate-50 p-3"
              aria-label={t('render.preview')}
            >
              <div className="flex flex-wrap items-center gap-2">
                <button
                  type="button"
                  className={secondary}
                  disabled={renders.busy || running || empty || duration <= 0}
                  onClick={() => void makePreview()}
                  data-testid="render-preview"
                >
                  {t('render.previewButton', {
                    seconds: RENDER_PREVIEW_SECONDS,
                    at: fmt.duration(previewStart),
                  })}
                </button>
                <span className="text-xs text-slate-500">{t('render.previewHint')}</span>
              </div>
              {preview ? (
                <div className="mt-3">
                  {preview.status === 'done' && preview.file_url ? (
                    <video
                      key={preview.id}
                      src={apiUrl(preview.file_url)}
                      className="mx-auto max-h-72 max-w-full rounded bg-black"
                      autoPlay
                      loop
                      muted
                      playsInline
                      controls
                      data-testid="render-preview-video"
                    />
                  ) : (
                    <RenderProgress render={preview} onCancel={renders.cancel} />
                  )}
                </div>
              ) : null}
            </section>
            <RenderList items={items.filter((r) => !r.preview)} onCancel={renders.cancel} />
          </div>
          <footer className="space-y-3 border-t border-slate-200 px-4 py-3 sm:px-5">
            {current?.status === 'done' && current.file_url ? (
              <p
                className="flex flex-wrap items-center gap-2 text-sm text-emerald-800"
                data-testid="render-ready"
              >
                {t('render.ready')}
                <a
                  href={apiUrl(`${current.file_url}?download=1`)}
                  download
                  className="rounded-md bg-emerald-600 px-2.5 py-1 text-xs font-semibold text-white hover:bg-emerald-700"
                >
                  {t('render.download')}
                </a>
              </p>
            ) : current ? (
              <RenderProgress render={current} onCancel={renders.cancel} />
            ) : null}
            <div className="flex flex-wrap items-center justify-end gap-2">
              <span className="mr-auto text-xs text-slate-500">
                {duration > 0 ? t('render.length', { duration: fmt.duration(duration) }) : null}
              </span>
              <button type="button" className={secondary} onClick={onClose}>
                {t('common.close')}
              </button>
              <button
                type="button"
                className={primary}
                disabled={renders.busy || running || empty || duration <= 0}
                onClick={() => void makeVideo()}
                data-testid="render-start"
              >
                {t('render.start')}
              </button>
            </div>
          </footer>
        </form>
      ) : null}
    </dialog>
  );
}

/** The toolbar's "Captioned video" button and its dialog. */
export function RenderVideoButton({
  transcript,
  time,
  track,
  canEditBackground,
  className,
}: {
  transcript: TranscriptJson;
  time: number;
  /** The track the page shows: a finished translation's id, or 'original'. */
  track: string;
  canEditBackground: boolean;
  className: string;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)} data-testid="render-open">
        {t('render.open')}
      </button>
      <RenderDialog
        transcript={transcript}
        time={time}
        track={track}
        canEditBackground={canEditBackground}
        open={open}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
