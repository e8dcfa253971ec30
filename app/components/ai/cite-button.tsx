import { useTranslation } from 'react-i18next';
import { chapterClock, type Citation } from '../../../common/insights';

/** The moments a statement comes from, as `[12:34]` buttons that play the media from there. */
export function Cites({ cites, onSeek }: { cites: readonly Citation[]; onSeek: (seconds: number) => void }) {
  const { t } = useTranslation();
  if (cites.length === 0) return null;
  return (
    <span className="ml-1 inline-flex flex-wrap gap-1 align-baseline">
      {cites.map((c) => (
        <button
          key={c.segment}
          type="button"
          data-testid="cite"
          data-start={c.start}
          onClick={() => onSeek(c.start)}
          aria-label={t('ai.cite', { time: chapterClock(c.start) })}
          className="rounded bg-brand-50 px-1 font-mono text-xs text-brand-700 hover:bg-brand-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          [{chapterClock(c.start)}]
        </button>
      ))}
    </span>
  );
}
