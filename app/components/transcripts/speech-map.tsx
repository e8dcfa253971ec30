import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../common/format';
import type { SpeechRegion } from '../../../common/transcript-types';

/**
 * The recording as a strip: the stretches transcribed as speech in colour, the skipped ones grey,
 * and the playhead. Clicking a stretch plays it.
 */
export function SpeechMap({
  regions,
  duration,
  time,
  onSeek,
}: {
  regions: SpeechRegion[];
  duration: number;
  time: number;
  onSeek: (seconds: number) => void;
}) {
  const { t } = useTranslation();
  if (!(duration > 0)) return null;
  const pct = (x: number) => `${Math.max(0, Math.min(100, (x / duration) * 100))}%`;
  return (
    <div className="space-y-1" data-testid="speech-map">
      <div
        className="relative h-3 w-full overflow-hidden rounded-full bg-slate-200"
        role="group"
        aria-label={t('pages.transcript.speechMap')}
        title={t('pages.transcript.speechMap')}
      >
        {regions.map((r) => (
          <button
            key={`${r.start}-${r.end}`}
            type="button"
            onClick={() => onSeek(r.start)}
            aria-label={t('editor.seek', { time: formatTime(r.start) })}
            className="absolute inset-y-0 bg-brand-500/80 hover:bg-brand-600"
            style={{ left: pct(r.start), width: pct(r.end - r.start) }}
          />
        ))}
        <span
          aria-hidden
          className="pointer-events-none absolute inset-y-0 w-0.5 bg-slate-900"
          style={{ left: pct(time) }}
        />
      </div>
    </div>
  );
}
