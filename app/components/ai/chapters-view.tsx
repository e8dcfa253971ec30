import { useTranslation } from 'react-i18next';
import { chapterClock, youtubeChapters, type Chapter } from '../../../common/insights';

/** Made chapters: a list that plays each from its start, and the YouTube description block. */
export function ChaptersView({
  chapters,
  current,
  onSeek,
}: {
  chapters: readonly Chapter[];
  current: number;
  onSeek: (seconds: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="space-y-3">
      <ol className="space-y-1" data-testid="ai-chapters">
        {chapters.map((c, i) => (
          <li key={c.segment}>
            <button
              type="button"
              onClick={() => onSeek(i === 0 ? 0 : c.start)}
              aria-current={i === current ? 'true' : undefined}
              className={`flex w-full gap-3 rounded-lg px-2 py-1.5 text-left hover:bg-slate-50 ${i === current ? 'bg-brand-50' : ''}`}
            >
              <span className="font-mono text-xs leading-5 text-brand-700">
                {chapterClock(i === 0 ? 0 : c.start)}
              </span>
              <span className="min-w-0">
                <span className="block text-sm font-medium text-slate-900">
                  <bdi>{c.title}</bdi>
                </span>
                {c.summary ? (
                  <span className="block text-xs text-slate-500">
                    <bdi>{c.summary}</bdi>
                  </span>
                ) : null}
              </span>
            </button>
          </li>
        ))}
      </ol>
      <div>
        <label
          htmlFor="youtube-chapters"
          className="text-xs font-semibold uppercase tracking-wide text-slate-500"
        >
          {t('ai.youtube')}
        </label>
        <textarea
          id="youtube-chapters"
          data-testid="youtube-chapters"
          readOnly
          rows={Math.min(8, chapters.length)}
          value={youtubeChapters(chapters)}
          className="mt-1 w-full resize-y rounded-lg border border-slate-300 bg-slate-50 p-2 font-mono text-xs text-slate-800"
        />
        <p className="text-xs text-slate-500">{t('ai.youtubeHint')}</p>
      </div>
    </div>
  );
}

/** The chapter playing at `time`: the last one started (-1 before the first). */
export function chapterAt(chapters: readonly Chapter[], time: number): number {
  let at = -1;
  chapters.forEach((c, i) => {
    if ((i === 0 ? 0 : c.start) <= time) at = i;
  });
  return at;
}
