import { useTranslation } from 'react-i18next';
import { chapterClock, type Chapter } from '../../../common/insights';
import { chapterAt } from './chapters-view';

/** The chapters as marks on a strip under the player, and the title of the one playing. */
export function ChapterMarks({
  chapters,
  duration,
  time,
  onSeek,
}: {
  chapters: readonly Chapter[];
  duration: number;
  time: number;
  onSeek: (seconds: number) => void;
}) {
  const { t } = useTranslation();
  if (!(duration > 0) || chapters.length === 0) return null;
  const pct = (x: number) => `${Math.max(0, Math.min(100, (x / duration) * 100))}%`;
  const current = chapterAt(chapters, time);
  return (
    <div className="space-y-1" data-testid="chapter-marks">
      <div
        role="group"
        aria-label={t('ai.chapterMarks')}
        className="relative h-2 w-full rounded-full bg-slate-200"
      >
        <span
          aria-hidden
          className="absolute inset-y-0 left-0 rounded-full bg-brand-200"
          style={{ width: pct(time) }}
        />
        {chapters.map((c, i) => (
          <button
            key={c.segment}
            type="button"
            onClick={() => onSeek(i === 0 ? 0 : c.start)}
            title={`${chapterClock(i === 0 ? 0 : c.start)} ${c.title}`}
            aria-label={`${chapterClock(i === 0 ? 0 : c.start)} ${c.title}`}
            className="absolute -top-1 h-4 w-1.5 -translate-x-1/2 rounded-sm bg-brand-600 hover:bg-brand-800"
            style={{ left: pct(i === 0 ? 0 : c.start) }}
          />
        ))}
      </div>
      {current >= 0 ? (
        <p className="truncate text-xs text-slate-600" data-testid="current-chapter">
          {chapterClock(current === 0 ? 0 : chapters[current]!.start)} · <bdi>{chapters[current]!.title}</bdi>
        </p>
      ) : null}
    </div>
  );
}
