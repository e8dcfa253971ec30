import { data, isRouteErrorResponse, Link, useSearchParams, type MetaDescriptor } from 'react-router';
import { ErrorView } from '../../components/layout/error-view';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/share';
import { notFound, requireUuid } from '../../lib/not-found';
import { rootDataFrom } from '../../lib/meta';
import { useLocalePath, useRootData } from '../../lib/use-locale';
import { formatTime } from '../../../common/format';
import {
  SHARE_ID_RE,
  type SharedTrackJson,
  type SharedTranscriptJson,
} from '../../../common/transcript-types';
import { trackHref } from '../../components/translation/track-bar';
import { useLanguageName } from '../../components/transcripts/language-select';
import { SpeakerName } from '../../components/speakers/speakers';
import { MediaPlayer } from '../../components/transcripts/media-player';
import { SummaryView } from '../../components/ai/summary-view';
import { chapterAt, ChaptersView } from '../../components/ai/chapters-view';
import { useMediaPlayer } from '../../lib/use-media-player';
import { useFormat } from '../../lib/use-format';

// A malformed transcript or share id fails route validation (fatal 404). A link its owner revoked,
// or that expired, is 410 Gone and says which (whoever holds it was given it); a link that is
// unknown or names another transcript is a plain 404.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = requireUuid(params.id, request);
  const path = new URL(request.url).pathname;
  if (!params.shareid || !SHARE_ID_RE.test(params.shareid)) throw notFound('fatal', path);
  const shared = await context.getSharedTranscript(id, params.shareid);
  if (!shared) {
    const closed = await context.getClosedShare(id, params.shareid);
    if (closed) throw data({ closed }, { status: 410, statusText: 'Gone', headers: shareHeaders });
    throw notFound('unknown', path);
  }
  return { shared };
}

/** A closed link's page: what happened, and what the product offers. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const closed =
    isRouteErrorResponse(error) && error.status === 410
      ? (error.data as { closed?: 'revoked' | 'expired' }).closed
      : undefined;
  if (!closed) return <ErrorView error={error} />;
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-16 sm:px-6 sm:py-24" data-testid="share-closed">
      <p className="text-sm font-semibold tracking-widest text-brand-600">410</p>
      <h1 className="mt-3 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        {closed === 'revoked' ? t('pages.share.revokedTitle') : t('pages.share.expiredTitle')}
      </h1>
      <p className="mt-3 text-slate-600">
        {closed === 'revoked' ? t('pages.share.revokedText') : t('pages.share.expiredText')}
      </p>
      <div className="mt-8">
        <Invitation />
      </div>
      <Link
        to={to('/')}
        className="mt-6 inline-block text-sm font-medium text-brand-700 hover:text-brand-900"
      >
        {t('errors.backHome')}
      </Link>
    </div>
  );
}

// Private-ish pages: never cached by shared caches (a revoked link must stop at once), never indexed.
const shareHeaders = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' };
export function headers() {
  return shareHeaders;
}

const DESCRIPTION_CHARS = 155;

/** The first ~155 characters of the text, cut at a word boundary. */
function snippet(shared: Pick<SharedTranscriptJson, 'segments'>, max = DESCRIPTION_CHARS): string {
  const text = shared.segments
    .map((s) => s.text.trim())
    .filter(Boolean)
    .join(' ')
    .replace(/\s+/g, ' ');
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}

export const meta: Route.MetaFunction = ({ loaderData, matches, location }) => {
  const root = rootDataFrom(matches);
  const app = root?.config.appName ?? 'ClipScribe';
  const robots: MetaDescriptor = { name: 'robots', content: 'noindex' };
  if (!loaderData) return [{ title: app }, robots];
  const { shared } = loaderData;
  const title = `${shared.name} — ${app}`;
  const description = snippet(shared);
  const base = root?.config.publicUrl;
  return [
    { title },
    { name: 'description', content: description },
    robots,
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:type', content: 'article' },
    { property: 'og:site_name', content: app },
    ...(base ? [{ property: 'og:url', content: base.replace(/\/$/, '') + location.pathname }] : []),
    { name: 'twitter:card', content: 'summary' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: description },
  ];
};

function Downloads({ shared, track }: { shared: SharedTranscriptJson; track: SharedTrackJson | null }) {
  const { t } = useTranslation();
  if (!shared.export_url || shared.export_formats.length === 0) return null;
  // A plain GET form: each button submits its format, so downloads work without JavaScript.
  return (
    <form
      method="get"
      action={shared.export_url}
      className="rounded-2xl border border-slate-200 bg-white p-4"
      data-testid="share-downloads"
    >
      <h2 className="text-sm font-semibold text-slate-900">{t('pages.share.downloads')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('pages.share.downloadsHint')}</p>
      {/* The files follow the language shown. */}
      {track ? (
        <>
          <input type="hidden" name="track" value={track.language} />
          <p className="mt-1 text-sm text-slate-600" data-testid="share-downloads-language">
            {t('translation.share.downloadsIn', { language: track.native_name })}
          </p>
        </>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        {shared.export_formats.map((f) => (
          <button
            key={f}
            type="submit"
            name="format"
            value={f}
            className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
          >
            {t(`pages.share.formats.${f}`)}
          </button>
        ))}
      </div>
      {shared.export_formats.includes('txt') ? (
        <label className="mt-3 flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name="timestamps" value="1" className="h-4 w-4 rounded border-slate-300" />
          {t('pages.share.timestamps')}
        </label>
      ) : null}
    </form>
  );
}

/** Original | 日本語 | Español: links (they work before the scripts run, and can be shared). */
function LanguageSwitcher({
  shared,
  track,
}: {
  shared: SharedTranscriptJson;
  track: SharedTrackJson | null;
}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const search = params.toString();
  const chip =
    'rounded-md px-2.5 py-1 text-sm font-medium whitespace-nowrap text-slate-600 hover:text-slate-900 aria-[current=true]:bg-white aria-[current=true]:text-brand-800 aria-[current=true]:shadow-sm';
  return (
    <nav
      aria-label={t('translation.tracks')}
      className="mt-4 flex max-w-full gap-0.5 overflow-x-auto rounded-lg bg-slate-100 p-0.5 sm:inline-flex"
      data-testid="share-languages"
    >
      <Link
        to={trackHref(search, null)}
        replace
        preventScrollReset
        aria-current={track === null}
        className={chip}
      >
        {t('translation.original')}
      </Link>
      {shared.tracks.map((k) => (
        <Link
          key={k.language}
          to={trackHref(search, k.language)}
          replace
          preventScrollReset
          aria-current={track?.language === k.language}
          className={chip}
          lang={k.language}
          data-track={k.language}
        >
          {k.native_name}
        </Link>
      ))}
    </nav>
  );
}

function Invitation() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const app = useRootData()?.config.appName ?? 'ClipScribe';
  return (
    <aside className="rounded-2xl bg-brand-50 p-5" data-testid="share-invite">
      <h2 className="font-semibold text-slate-900">{t('pages.share.inviteTitle')}</h2>
      <p className="mt-1 text-sm text-slate-700">{t('pages.share.inviteText', { app })}</p>
      <Link
        to={to('/register')}
        className="mt-4 inline-block rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
      >
        {t('pages.share.inviteCta', { app })}
      </Link>
    </aside>
  );
}

export default function SharedTranscript({ loaderData }: Route.ComponentProps) {
  const { shared } = loaderData;
  const { t } = useTranslation();
  const fmt = useFormat();
  const nameOf = useLanguageName();
  const app = useRootData()?.config.appName ?? 'ClipScribe';
  const player = useMediaPlayer({ segments: shared.segments, mediaUrl: shared.media_url });
  const { current, currentRow, seek } = player;
  const media = shared.media_url;
  const speakerById = new Map((shared.speakers ?? []).map((sp) => [sp.id, sp]));
  // A translation chosen in the address (?track=ja): its text, the same timings and speakers.
  const [params] = useSearchParams();
  const wanted = params.get('track')?.toLowerCase();
  const track = (wanted && shared.tracks?.find((k) => k.language.toLowerCase() === wanted)) || null;
  const textOf = (i: number, original: string) => (track ? (track.texts[i] ?? '') : original);

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-12" data-testid="shared-transcript">
      <header>
        <p className="text-sm font-medium text-brand-600">{t('pages.share.sharedWith', { app })}</p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">
          {shared.name}
        </h1>
        <p className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-sm text-slate-600">
          {shared.duration !== null ? (
            <span>{t('pages.share.duration', { duration: fmt.duration(shared.duration) })}</span>
          ) : null}
          {shared.language ? (
            <span>{t('pages.share.language', { language: nameOf(shared.language) })}</span>
          ) : null}
        </p>
        {shared.tracks?.length ? <LanguageSwitcher shared={shared} track={track} /> : null}
      </header>

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:grid-rows-[auto_1fr]">
        {media ? (
          <div className="lg:col-start-1 lg:row-start-1">
            <MediaPlayer
              src={media}
              hasVideo={shared.has_video}
              mediaRef={player.ref}
              onTimeUpdate={player.onTimeUpdate}
              unplayable={player.unplayable}
            />
            <p className="mt-2 text-xs text-slate-500">{t('pages.share.seekHint')}</p>
          </div>
        ) : null}

        <section className="min-w-0 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <h2 className="sr-only">{t('pages.share.text')}</h2>
          {shared.segments.length === 0 ? (
            <p className="text-sm text-slate-500">{t('pages.share.empty')}</p>
          ) : (
            <ol className="space-y-1" data-testid="segments">
              {shared.segments.map((s, i) => {
                const body = (
                  <>
                    <span className="w-14 shrink-0 pt-0.5 font-mono text-xs text-slate-500 tabular-nums">
                      {formatTime(s.start)}
                    </span>
                    <span className="min-w-0 break-words text-slate-800" lang={track?.language}>
                      <SpeakerName speaker={s.speaker ? speakerById.get(s.speaker) : undefined} />
                      {textOf(i, s.text)}
                    </span>
                  </>
                );
                const row = `flex w-full gap-3 rounded-lg px-3 py-2 text-left ${i === current ? 'bg-brand-50' : ''}`;
                return (
                  <li key={`${i}-${s.start}`} ref={i === current ? currentRow : undefined}>
                    {media ? (
                      <button
                        type="button"
                        onClick={() => seek(s.start)}
                        className={`${row} hover:bg-slate-50`}
                      >
                        {body}
                      </button>
                    ) : (
                      <div className={row}>{body}</div>
                    )}
                  </li>
                );
              })}
            </ol>
          )}
        </section>

        <div className="space-y-6 lg:col-start-1 lg:row-start-2">
          {shared.summary ? (
            <section data-testid="shared-summary" aria-labelledby="shared-summary-title">
              <h2 id="shared-summary-title" className="mb-2 text-sm font-semibold text-slate-900">
                {t('ai.tabs.summary')}
              </h2>
              <SummaryView summary={shared.summary} onSeek={seek} />
            </section>
          ) : null}
          {shared.chapters ? (
            <section data-testid="shared-chapters" aria-labelledby="shared-chapters-title">
              <h2 id="shared-chapters-title" className="mb-2 text-sm font-semibold text-slate-900">
                {t('ai.tabs.chapters')}
              </h2>
              <ChaptersView
                chapters={shared.chapters}
                current={chapterAt(shared.chapters, player.time)}
                onSeek={seek}
              />
            </section>
          ) : null}
          <Downloads shared={shared} track={track} />
          <Invitation />
        </div>
      </div>
    </div>
  );
}
