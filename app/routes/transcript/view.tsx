import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { retimeSegment, segmentBounds, SegmentTimeError } from '../../../common/segment-times';
import { modelLabel } from '../../../common/engines';
import type { Route } from './+types/view';
import { notFound, requireUuid } from '../../lib/not-found';
import { pageMeta } from '../../lib/meta';
import { useSegmentEditor } from '../../lib/use-segment-editor';
import { useMediaPlayer } from '../../lib/use-media-player';
import { useTranscriptLive } from '../../lib/use-transcript-live';
import { planFormats, useUserState } from '../../lib/user-state';
import { ACTIVE_STATUSES, type TranscriptJson } from '../../../common/transcript-types';
import { PageFrame } from '../../components/layout/page-frame';
import { StatusBadge } from '../../components/transcripts/status-badge';
import { JobProgress } from '../../components/transcripts/job-progress';
import { SpeechMap } from '../../components/transcripts/speech-map';
import { useLanguageName } from '../../components/transcripts/language-select';
import { SegmentRow } from '../../components/transcripts/segment-row';
import { SharePanel } from '../../components/transcripts/share-panel';
import { CommentsPanel } from '../../components/transcripts/comments-panel';
import { ActivityPanel } from '../../components/transcripts/activity-panel';
import { MediaPlayer } from '../../components/transcripts/media-player';
import { PlayerToolbar, type PhonePanel } from '../../components/transcripts/player-toolbar';
import { useStoredItem } from '../../lib/use-stored-item';
import { FindBar, useFind } from '../../components/transcripts/find-bar';
import { ExportControl } from '../../components/transcripts/export-control';
import { SpeakerPanel, SpeakerProvider, useSpeakerCounts } from '../../components/speakers/speakers';
import { useSpeakerEditing } from '../../components/speakers/use-speaker-editing';
import { SpeakerNotice } from '../../components/speakers/speaker-notice';
import {
  RenameTitle,
  TranscribeAll,
  TranscriptActions,
} from '../../components/transcripts/transcript-header';
import { reloadAction } from '../../lib/form-action';
import { useFormat } from '../../lib/use-format';
import { linkedSegment } from '../../../common/search-snippet';
import { useInsights } from '../../lib/use-insights';
import { useCurrentWorkspace } from '../../lib/use-workspace';
import { AiPanel } from '../../components/ai/ai-panel';
import { AskTab } from '../../components/ai/ask-tab';
import { ChapterMarks } from '../../components/ai/chapter-marks';
import { RenderVideoButton } from '../../components/render/render-dialog';
import { GlossaryDialog } from '../../components/translation/glossary-dialog';
import { TrackBar } from '../../components/translation/track-bar';
import { TrackSegmentRow } from '../../components/translation/track-segment-row';
import { TranslateDialog } from '../../components/translation/translate-dialog';
import { trackExportUrl } from '../../components/translation/track-export';
import { useTrackView } from '../../components/translation/use-track-view';

// A malformed id fails route validation (fatal 404); a well-formed id that names nothing the
// user owns is an ordinary 404.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = requireUuid(params.id, request);
  const transcript = await context.getTranscript(id);
  if (!transcript) throw notFound('unknown', new URL(request.url).pathname);
  return { transcript };
}

// Its forms need the page's scripts; one posted before they ran just reloads the page.
export const action = reloadAction;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.transcript.title', { noindex: true, name: args.loaderData?.transcript.name });

const button =
  'rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

export default function TranscriptView({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const nameOf = useLanguageName();
  const userState = useUserState();
  const live = useTranscriptLive(loaderData.transcript);
  const [edited, setEdited] = useState<TranscriptJson | null>(null);
  const transcript = edited && edited.updated_at >= live.updated_at ? edited : live;
  const active = ACTIVE_STATUSES.includes(transcript.status);
  const editable = transcript.status === 'done';
  const segments = useMemo(() => transcript.segments ?? [], [transcript.segments]);
  const list = useRef<HTMLOListElement | null>(null);
  const editor = useSegmentEditor(transcript, setEdited);
  const player = useMediaPlayer({
    segments,
    mediaUrl: transcript.media?.url,
    keyboard: { onUndo: editor.undo },
  });
  // Translations: the track chosen in the address is what the page shows and exports.
  const tv = useTrackView(transcript.id, editable, segments);
  const track = tv.selected;
  const find = useFind(tv.shown ?? segments, list);
  // Phones: the player can shrink (remembered), and Export / Share open at the top of the page.
  const [compactSaved, setCompact] = useStoredItem<boolean>('player-compact', 'boolean');
  const compact = compactSaved === true;
  const [phonePanel, setPhonePanel] = useState<PhonePanel | null>(null);
  const panelsId = useId();
  const panels = useRef<HTMLDivElement | null>(null);
  const openPanel = (next: PhonePanel | null) => {
    setPhonePanel(next);
    // After the panel is shown: bring it to the top of the screen (below the site header).
    if (next) requestAnimationFrame(() => panels.current?.scrollIntoView({ block: 'start' }));
  };
  const insights = useInsights(transcript.id, editable);
  const { can } = useCurrentWorkspace();
  const chapters = insights.state?.chapters?.chapters ?? null;

  // A link to a segment (a search result: ?seg=<index>&t=<seconds>) opens the page there: the
  // segment in view and outlined, the player at its start. A bad link is ignored.
  const [params] = useSearchParams();
  const linked = useMemo(
    () => linkedSegment(params.get('seg'), params.get('t'), segments),
    [params, segments],
  );
  const cuedFor = useRef<string | null>(null);
  const { cue } = player;
  useEffect(() => {
    const key = params.toString();
    if (cuedFor.current === key || linked === null) return;
    cuedFor.current = key;
    cue(segments[linked]!.start);
    list.current?.querySelector(`[data-segment="${linked}"]`)?.scrollIntoView({ block: 'start' });
  }, [params, linked, segments, cue]);
  // Outlined while it is the one at the player's time (until another plays).
  const outlined = linked !== null && (player.current === linked || player.current === -1) ? linked : null;
  const speakers = useSpeakerEditing(transcript, segments, editor, editable);
  const speakerCounts = useSpeakerCounts(segments);
  // The activity reloads after what this page did (an edit saved, a comment written).
  const [activityVersion, setActivityVersion] = useState(0);
  const bumpActivity = useCallback(() => setActivityVersion((v) => v + 1), []);
  const lastEdit = transcript.last_edit;

  const copyAll = async () => {
    try {
      await navigator.clipboard.writeText(segments.map((s) => s.text).join('\n'));
      toast.success(t('editor.copied'));
    } catch {
      toast.error(t('editor.copyFailed'));
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
  // A time the server would refuse is said at once, in the words the API would use. Resolves to
  // true once saved (the timeline keeps showing a dragged edge until then).
  const onTime = useCallback(
    (index: number, start: number, end: number) => {
      try {
        retimeSegment(segments, index, start, end, transcript.duration ?? undefined);
      } catch (err) {
        if (err instanceof SegmentTimeError)
          return void toast.error(t(`errors.transcripts.time_${err.problem}`, { limit: err.limit }));
        throw err;
      }
      return editor.send({ op: 'time', index, start, end }, segments);
    },
    [editor, segments, t, transcript.duration],
  );
  // The open segment's neighbours and the recording's end: how far its edges can be dragged.
  const timeBounds = useMemo(
    () =>
      editor.editing === null || !segments[editor.editing]
        ? undefined
        : segmentBounds(segments, editor.editing, transcript.duration),
    [editor.editing, segments, transcript.duration],
  );
  // Tab / Shift+Tab from segment `from` skip the segments a speaker filter hides.
  const { hidden } = speakers;
  const { edit } = editor;
  const openSegment = useCallback(
    (target: number, from?: number) => {
      const step = from !== undefined && target < from ? -1 : 1;
      let i = target;
      while (i >= 0 && i < segments.length && hidden(segments[i]!)) i += step;
      edit(i >= 0 && i < segments.length ? i : null);
    },
    [segments, hidden, edit],
  );

  const language =
    transcript.detected_language ?? (transcript.language === 'auto' ? null : transcript.language);
  const { formats, locked } = planFormats(userState);
  const media = transcript.media;

  return (
    <PageFrame
      heading={<RenameTitle transcript={transcript} onRenamed={setEdited} />}
      subtitle={
        <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <StatusBadge status={transcript.status} progress={transcript.progress} stage={transcript.stage} />
          <span>{fmt.isoDate(transcript.created_at)}</span>
          {transcript.duration !== null ? <span>{fmt.duration(transcript.duration)}</span> : null}
          {language ? <span>{nameOf(language)}</span> : null}
          {transcript.source === 'import' ? <span>{t('pages.transcript.imported')}</span> : null}
          {transcript.model ? (
            <span
              className="text-slate-500"
              title={t('pages.transcript.modelHint')}
              data-testid="transcript-model"
            >
              {t('pages.transcript.model', { name: modelLabel(transcript.model) })}
            </span>
          ) : null}
          {transcript.source === 'link' && transcript.source_url ? (
            <a
              href={transcript.source_url}
              target="_blank"
              rel="noopener noreferrer nofollow"
              className="max-w-[16rem] truncate text-brand-700 hover:underline"
              title={transcript.source_url}
            >
              {t('transcripts.link.source')}
            </a>
          ) : null}
          {lastEdit?.by ? (
            <span data-testid="last-edit">
              {t('pages.transcript.lastEdited', { name: lastEdit.by.name, date: fmt.isoDate(lastEdit.at) })}
            </span>
          ) : null}
          {editor.saving ? <span className="text-slate-500">{t('editor.saving')}</span> : null}
        </span>
      }
      actions={<TranscriptActions transcript={transcript} />}
    >
      {/* Phones: the player (compact if chosen, kept at the top while reading) with a toolbar
          that opens Export or Share above it, then the text. Desktops keep the player and the
          panels in view beside the text. */}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <div
          data-testid="player-column"
          className="contents lg:sticky lg:top-20 lg:col-start-1 lg:row-start-1 lg:block lg:max-h-[calc(100vh-6rem)] lg:space-y-4 lg:self-start lg:overflow-y-auto"
        >
          <div
            data-testid="player-box"
            data-compact={compact || undefined}
            className="order-1 space-y-2 max-lg:sticky max-lg:top-16 max-lg:z-20 max-lg:-mx-4 max-lg:bg-white/95 max-lg:px-4 max-lg:py-2 max-lg:shadow-sm max-lg:backdrop-blur"
          >
            {media ? (
              <MediaPlayer
                src={media.url}
                hasVideo={media.has_video}
                compact={compact}
                mediaRef={player.ref}
                onTimeUpdate={player.onTimeUpdate}
                unplayable={player.unplayable}
              />
            ) : (
              <p className="text-sm text-slate-500">{t('pages.transcript.noMedia')}</p>
            )}
            {media && transcript.speech_regions && transcript.duration ? (
              <div className={compact ? 'max-lg:hidden' : undefined}>
                <SpeechMap
                  regions={transcript.speech_regions}
                  duration={transcript.duration}
                  time={player.time}
                  onSeek={player.seek}
                />
              </div>
            ) : null}
            {media && chapters && transcript.duration ? (
              <ChapterMarks
                chapters={chapters}
                duration={transcript.duration}
                time={player.time}
                onSeek={player.seek}
              />
            ) : null}
            <PlayerToolbar
              speed={media ? player.speed : null}
              onSpeed={player.setSpeed}
              compact={media?.has_video ? compact : null}
              onCompact={setCompact}
              panel={phonePanel}
              onPanel={openPanel}
              panelsId={panelsId}
              canExport={editable}
            />
            {media ? <p className="hidden text-xs text-slate-500 lg:block">{t('editor.shortcuts')}</p> : null}
          </div>
          {editable && segments.length > 0 ? (
            <div className="order-2">
              <AiPanel
                name={transcript.name}
                transcriptLanguage={language ? nameOf(language) : null}
                duration={transcript.duration}
                insights={insights}
                time={player.time}
                onSeek={player.seek}
                canGenerate={can('transcript.ai')}
                ask={
                  can('transcript.ask') ? (
                    <AskTab
                      transcriptId={transcript.id}
                      folderId={transcript.folder_id}
                      onSeek={player.seek}
                    />
                  ) : undefined
                }
              />
            </div>
          ) : null}
          {transcript.status === 'done' && transcript.detect_speech && transcript.source === 'upload' ? (
            <div className="order-3">
              <TranscribeAll transcript={transcript} />
            </div>
          ) : null}
          <div
            id={panelsId}
            ref={panels}
            data-testid="transcript-panels"
            className={`order-0 space-y-4 scroll-mt-20 ${phonePanel ? '' : 'max-lg:hidden'}`}
          >
            {editable ? (
              <section
                className={`rounded-xl border border-slate-200 bg-white p-4 ${phonePanel === 'share' ? 'max-lg:hidden' : ''}`}
                aria-label={t('editor.exportTitle')}
              >
                <h2 className="text-sm font-semibold text-slate-900">{t('editor.exportTitle')}</h2>
                <ExportControl
                  className="mt-2"
                  formats={formats}
                  locked={locked}
                  offerTimestamps
                  offerSegmentCues={!track}
                  offerBilingual={track?.status === 'done'}
                  offerAllTracks={tv.tracks.tracks.some((k) => k.status === 'done')}
                  request={(choice) => ({
                    url: trackExportUrl(transcript.id, track, choice),
                  })}
                />
              </section>
            ) : null}
            <SharePanel transcript={transcript} className={phonePanel === 'export' ? 'max-lg:hidden' : ''} />
          </div>
          <div className="order-3 space-y-4">
            {editable ? (
              <CommentsPanel
                transcript={transcript}
                currentSegment={player.current}
                time={player.time}
                onSeek={player.seek}
                onChange={bumpActivity}
              />
            ) : null}
            <ActivityPanel
              transcriptId={transcript.id}
              version={activityVersion + Date.parse(transcript.updated_at)}
            />
          </div>
        </div>
        <div className="order-2 min-w-0 lg:col-start-2 lg:row-start-1">
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
          <SpeakerNotice transcript={transcript} editable={editable} />
          {segments.length > 0 ? (
            <>
              {editable ? (
                <>
                  <TrackBar
                    tracks={tv.tracks.tracks}
                    selected={track}
                    onTranslate={can('transcript.edit') ? tv.openDialog : undefined}
                    onGlossary={can('transcript.edit') ? tv.openGlossary : undefined}
                    onRetry={can('transcript.edit') ? tv.retry : undefined}
                  />
                  <TranslateDialog
                    open={tv.dialog}
                    onClose={tv.closeDialog}
                    tracks={tv.tracks}
                    sourceChars={segments.reduce((n, s) => n + s.text.length, 0)}
                    onStarted={tv.started}
                  />
                  <GlossaryDialog open={tv.glossary} onClose={tv.closeGlossary} />
                </>
              ) : null}
              <div className="z-10 mb-2 flex flex-wrap items-center gap-2 bg-white/95 py-2 backdrop-blur lg:sticky lg:top-16">
                <FindBar
                  find={find}
                  actions={
                    editable && !track
                      ? {
                          replace: (term, replacement, index) =>
                            editor.replace(segments, term, replacement, index),
                          undo: editor.undo,
                        }
                      : undefined
                  }
                />
                <button type="button" className={button} onClick={() => void copyAll()}>
                  {t('editor.copyAll')}
                </button>
                {editable && !track ? (
                  <button type="button" className={button} disabled={!editor.canUndo} onClick={editor.undo}>
                    {t('editor.undo')}
                  </button>
                ) : null}
                {editable && media && can('transcript.export') ? (
                  <RenderVideoButton
                    transcript={transcript}
                    time={player.time}
                    track={track?.status === 'done' ? track.id : 'original'}
                    canEditBackground={can('transcript.edit')}
                    className={button}
                  />
                ) : null}
                {track ? (
                  <button
                    type="button"
                    className={`${button} aria-pressed:border-brand-500 aria-pressed:text-brand-700`}
                    aria-pressed={tv.sideBySide}
                    onClick={() => tv.setSideBySide(!tv.sideBySide)}
                    data-testid="side-by-side"
                  >
                    {t('translation.sideBySide')}
                  </button>
                ) : null}
              </div>
              <SpeakerPanel tools={speakers.tools} counts={speakerCounts} {...speakers.panel} />
              <SpeakerProvider value={speakers.tools}>
                <ol className="space-y-0.5" data-testid="segments" data-track={track?.language} ref={list}>
                  {track && tv.shown
                    ? segments.map((s, i) =>
                        speakers.hidden(s) ? null : (
                          <TrackSegmentRow
                            key={`${track.id}-${i}`}
                            index={i}
                            segment={s}
                            text={tv.shown![i]!.text}
                            language={track.language}
                            sideBySide={tv.sideBySide}
                            current={i === player.current}
                            editable={track.status === 'done' && can('transcript.edit')}
                            editing={tv.editor.editing === i}
                            isLast={i === segments.length - 1}
                            term={find.term.trim()}
                            retranslating={
                              tv.editor.retranslating === i || !!track.retranslating?.includes(i)
                            }
                            onSeek={player.seek}
                            onText={tv.editor.save}
                            onEdit={tv.editor.edit}
                            onClose={tv.editor.close}
                            onRetranslate={tv.editor.retranslate}
                            rowRef={i === player.current ? player.currentRow : undefined}
                          />
                        ),
                      )
                    : segments.map((s, i) =>
                        speakers.hidden(s) ? null : (
                          <SegmentRow
                            key={`${i}-${s.start}-${s.end}`}
                            index={i}
                            segment={s}
                            current={i === player.current}
                            linked={i === outlined}
                            time={i === player.current ? player.time : undefined}
                            editable={editable}
                            editing={editor.editing === i}
                            term={find.term.trim()}
                            isLast={i === segments.length - 1}
                            onSeek={player.seek}
                            onText={onText}
                            onSplit={onSplit}
                            onMerge={onMerge}
                            onTime={onTime}
                            timeBounds={editor.editing === i ? timeBounds : undefined}
                            onEdit={openSegment}
                            onClose={editor.close}
                            rowRef={i === player.current ? player.currentRow : undefined}
                          />
                        ),
                      )}
                </ol>
              </SpeakerProvider>
            </>
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
