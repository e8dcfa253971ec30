import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { RANK_LIMITS } from '../../../common/ranks';
import { Link, useNavigate, useRevalidator } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Route } from './+types/view';
import { notFound, requireUuid } from '../../lib/not-found';
import { pageMeta } from '../../lib/meta';
import { api } from '../../lib/api';
import { ApiClientError } from '../../lib/api-client';
import { downloadFile } from '../../lib/download';
import { useLocalePath } from '../../lib/use-locale';
import { useSegmentEditor } from '../../lib/use-segment-editor';
import { useTranscriptLive } from '../../lib/use-transcript-live';
import { useUserState } from '../../lib/user-state';
import { formatDate, formatDuration } from '../../../common/format';
import { ACTIVE_STATUSES, type TranscriptJson } from '../../../common/transcript-types';
import { PageFrame } from '../../components/layout/page-frame';
import { StatusBadge } from '../../components/transcripts/status-badge';
import { JobProgress } from '../../components/transcripts/job-progress';
import { SpeechMap } from '../../components/transcripts/speech-map';
import { useLanguageName } from '../../components/transcripts/language-select';
import { SegmentRow } from '../../components/transcripts/segment-row';
import { SharePanel } from '../../components/transcripts/share-panel';

// A malformed id fails route validation (fatal 404); a well-formed id that names nothing the
// user owns is an ordinary 404.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = requireUuid(params.id, request);
  const transcript = await context.getTranscript(id);
  if (!transcript) throw notFound('unknown', new URL(request.url).pathname);
  return { transcript };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.transcript.title', { noindex: true });

const SKIP_SECONDS = 5;
const button =
  'rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

function isTyping(target: EventTarget | null) {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

export default function TranscriptView({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const nameOf = useLanguageName();
  const { permissions_quota: quota } = useUserState();
  const live = useTranscriptLive(loaderData.transcript);
  const [edited, setEdited] = useState<TranscriptJson | null>(null);
  const transcript = edited && edited.updated_at >= live.updated_at ? edited : live;
  const player = useRef<HTMLMediaElement | null>(null);
  const [time, setTime] = useState(0);
  const [busy, setBusy] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [unplayable, setUnplayable] = useState(false);
  const [term, setTerm] = useState('');
  const [hit, setHit] = useState(0);
  const [format, setFormat] = useState('txt');
  const [timestamps, setTimestamps] = useState(true);
  const [segmentCues, setSegmentCues] = useState(false);
  const active = ACTIVE_STATUSES.includes(transcript.status);
  const editable = transcript.status === 'done';
  const segments = useMemo(() => transcript.segments ?? [], [transcript.segments]);
  const current = segments.findIndex((s) => time >= s.start && time < s.end);
  const currentRow = useRef<HTMLLIElement | null>(null);
  const list = useRef<HTMLOListElement | null>(null);
  const editor = useSegmentEditor(transcript, setEdited);

  const matches = useMemo(() => {
    const needle = term.trim().toLocaleLowerCase();
    if (!needle) return [];
    return segments.flatMap((s, i) => (s.text.toLocaleLowerCase().includes(needle) ? [i] : []));
  }, [segments, term]);

  // A format the browser cannot play errors the media element, possibly before hydration,
  // when no React handler was there to see it: listen, and look once.
  const mediaUrl = transcript.media?.url;
  useEffect(() => {
    const el = player.current;
    if (!el || !mediaUrl) return;
    const check = () => setUnplayable(el.error !== null);
    el.addEventListener('error', check);
    const timer = setTimeout(check, 0);
    return () => {
      el.removeEventListener('error', check);
      clearTimeout(timer);
    };
  }, [mediaUrl]);

  // The segment being played stays in view.
  useEffect(() => {
    currentRow.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [current]);

  const showMatch = useCallback(
    (n: number) => {
      if (!matches.length) return;
      const k = ((n % matches.length) + matches.length) % matches.length;
      setHit(k);
      list.current?.querySelector(`[data-segment="${matches[k]}"]`)?.scrollIntoView({ block: 'center' });
    },
    [matches],
  );

  const seek = useCallback((seconds: number) => {
    const media = player.current;
    if (!media) return;
    media.currentTime = Math.max(0, seconds);
    setTime(media.currentTime);
    void media.play().catch(() => undefined);
  }, []);

  // Space or k plays and pauses; ← / j and → / l skip 5 s; Ctrl+Z undoes the last edit.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.altKey) return;
      const media = player.current;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        editor.undo();
        return;
      }
      if (e.ctrlKey || e.metaKey || !media) return;
      if (e.key === ' ' || e.key === 'k') {
        e.preventDefault();
        if (media.paused) void media.play().catch(() => undefined);
        else media.pause();
      } else if (e.key === 'ArrowLeft' || e.key === 'j') {
        e.preventDefault();
        media.currentTime = Math.max(0, media.currentTime - SKIP_SECONDS);
      } else if (e.key === 'ArrowRight' || e.key === 'l') {
        e.preventDefault();
        media.currentTime = Math.min(media.duration || Infinity, media.currentTime + SKIP_SECONDS);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editor]);

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

  // Speech was missed: the whole recording again, silence included (edits are replaced).
  const transcribeAll = async () => {
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

  const rename = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const name = String(new FormData(e.currentTarget).get('name') ?? '').trim();
    setRenaming(false);
    if (!name || name === transcript.name) return;
    try {
      setEdited(await api.patch<TranscriptJson>(`/self-api/v1/transcripts/${transcript.id}`, { name }));
    } catch {
      // shown by the API client
    }
  };

  const copyAll = async () => {
    try {
      await navigator.clipboard.writeText(segments.map((s) => s.text).join('\n'));
      toast.success(t('editor.copied'));
    } catch {
      toast.error(t('editor.copyFailed'));
    }
  };

  const exportAs = async () => {
    const query = new URLSearchParams({
      format,
      ...(format === 'txt' && timestamps ? { timestamps: '1' } : {}),
      ...((format === 'srt' || format === 'vtt') && segmentCues ? { cues: 'segment' } : {}),
    });
    try {
      await downloadFile(`/self-api/v1/transcripts/${transcript.id}/export?${query.toString()}`);
    } catch (err) {
      toast.error(
        err instanceof ApiClientError
          ? t(err.message, (err.data ?? {}) as Record<string, unknown>)
          : t('errors.requestError'),
      );
    }
  };

  const onText = useCallback(
    (index: number, text: string) => void editor.send({ op: 'text', index, text }, segments),
    [editor, segments],
  );
  const onSplit = useCallback(
    (index: number, offset: number) => void editor.send({ op: 'split', index, offset }, segments),
    [editor, segments],
  );
  const onMerge = useCallback(
    (index: number) => void editor.send({ op: 'merge', index }, segments),
    [editor, segments],
  );

  const language =
    transcript.detected_language ?? (transcript.language === 'auto' ? null : transcript.language);
  const formats = quota?.export_formats ?? RANK_LIMITS.Free.export_formats;
  const media = transcript.media;

  return (
    <PageFrame
      heading={
        renaming ? (
          <form onSubmit={(e) => void rename(e)} className="flex gap-2">
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
            className="text-left hover:text-brand-700"
            title={t('editor.rename')}
          >
            {transcript.name}
          </button>
        )
      }
      subtitle={
        <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <StatusBadge status={transcript.status} progress={transcript.progress} stage={transcript.stage} />
          <span>{formatDate(Date.parse(transcript.created_at) / 1000)}</span>
          {transcript.duration !== null ? <span>{formatDuration(transcript.duration)}</span> : null}
          {language ? <span>{nameOf(language)}</span> : null}
          {transcript.source === 'import' ? <span>{t('pages.transcript.imported')}</span> : null}
          {editor.saving ? <span className="text-slate-500">{t('editor.saving')}</span> : null}
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
      {/* Phones read the player, then the text, then the export and share panels. */}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:grid-rows-[auto_1fr]">
        <div className="space-y-2 lg:col-start-1 lg:row-start-1">
          {media ? (
            media.has_video ? (
              <video
                ref={player as React.RefObject<HTMLVideoElement>}
                src={media.url}
                controls
                playsInline
                preload="metadata"
                onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
                className="w-full rounded-xl bg-black"
              />
            ) : (
              <audio
                ref={player as React.RefObject<HTMLAudioElement>}
                src={media.url}
                controls
                preload="metadata"
                onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
                className="w-full"
              />
            )
          ) : (
            <p className="text-sm text-slate-500">{t('pages.transcript.noMedia')}</p>
          )}
          {unplayable ? (
            <p role="status" className="text-sm text-amber-800">
              {t('editor.unplayable')}
            </p>
          ) : null}
          {media && transcript.speech_regions && transcript.duration ? (
            <SpeechMap
              regions={transcript.speech_regions}
              duration={transcript.duration}
              time={time}
              onSeek={seek}
            />
          ) : null}
          {media ? <p className="hidden text-xs text-slate-500 lg:block">{t('editor.shortcuts')}</p> : null}
          {transcript.status === 'done' && transcript.detect_speech && transcript.source === 'upload' ? (
            <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
              <span>{t('pages.transcript.transcribeAllHint')}</span>
              <button
                type="button"
                className={button}
                disabled={busy}
                onClick={() => void transcribeAll()}
                data-testid="transcribe-all"
              >
                {t('pages.transcript.transcribeAll')}
              </button>
            </div>
          ) : null}
        </div>
        <div className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
          {active ? <JobProgress transcript={transcript} /> : null}
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
            <>
              <div className="sticky top-16 z-10 mb-2 flex flex-wrap items-center gap-2 bg-white/95 py-2 backdrop-blur">
                <input
                  type="search"
                  value={term}
                  onChange={(e) => {
                    setTerm(e.target.value);
                    setHit(0);
                  }}
                  onKeyDown={(e) => e.key === 'Enter' && showMatch(e.shiftKey ? hit - 1 : hit + 1)}
                  placeholder={t('editor.find')}
                  aria-label={t('editor.find')}
                  className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-1.5 text-sm"
                />
                {term.trim() ? (
                  <span className="text-xs text-slate-500" data-testid="matches">
                    {matches.length
                      ? t('editor.matches', { n: hit + 1, total: matches.length })
                      : t('editor.noMatches')}
                  </span>
                ) : null}
                <button type="button" className={button} onClick={() => void copyAll()}>
                  {t('editor.copyAll')}
                </button>
                {editable ? (
                  <button type="button" className={button} disabled={!editor.canUndo} onClick={editor.undo}>
                    {t('editor.undo')}
                  </button>
                ) : null}
              </div>
              <ol className="space-y-0.5" data-testid="segments" ref={list}>
                {segments.map((s, i) => (
                  <SegmentRow
                    key={`${i}-${s.start}-${s.end}`}
                    index={i}
                    segment={s}
                    current={i === current}
                    time={i === current ? time : undefined}
                    editable={editable}
                    term={term.trim()}
                    isLast={i === segments.length - 1}
                    onSeek={seek}
                    onText={onText}
                    onSplit={onSplit}
                    onMerge={onMerge}
                    rowRef={i === current ? currentRow : undefined}
                  />
                ))}
              </ol>
            </>
          ) : transcript.status === 'done' ? (
            <p className="text-sm text-slate-500">{t('pages.transcript.empty')}</p>
          ) : active ? (
            <p className="text-sm text-slate-500">{t('pages.transcript.waitingSegments')}</p>
          ) : null}
        </div>
        <div className="space-y-4 lg:col-start-1 lg:row-start-2">
          {editable ? (
            <section
              className="rounded-xl border border-slate-200 bg-white p-4"
              aria-label={t('editor.exportTitle')}
            >
              <h2 className="text-sm font-semibold text-slate-900">{t('editor.exportTitle')}</h2>
              <div className="mt-2 flex flex-wrap items-center gap-2">
                <select
                  value={format}
                  onChange={(e) => setFormat(e.target.value)}
                  aria-label={t('workspace.format')}
                  className="rounded-lg border border-slate-300 px-2 py-1.5 text-sm"
                  data-testid="export-format"
                >
                  {formats.map((f) => (
                    <option key={f} value={f}>
                      {f.toUpperCase()}
                    </option>
                  ))}
                </select>
                {format === 'txt' ? (
                  <label className="flex items-center gap-1.5 text-sm text-slate-700">
                    <input
                      type="checkbox"
                      checked={timestamps}
                      onChange={(e) => setTimestamps(e.target.checked)}
                      className="h-4 w-4 rounded border-slate-300"
                    />
                    {t('editor.withTimes')}
                  </label>
                ) : null}
                {format === 'srt' || format === 'vtt' ? (
                  <label className="flex items-center gap-1.5 text-sm text-slate-700">
                    <input
                      type="checkbox"
                      checked={segmentCues}
                      onChange={(e) => setSegmentCues(e.target.checked)}
                      className="h-4 w-4 rounded border-slate-300"
                    />
                    {t('editor.oneCuePerSegment')}
                  </label>
                ) : null}
                <button type="button" className={button} onClick={() => void exportAs()} data-testid="export">
                  {t('workspace.export')}
                </button>
              </div>
            </section>
          ) : null}
          <SharePanel transcript={transcript} />
        </div>
      </div>
    </PageFrame>
  );
}
