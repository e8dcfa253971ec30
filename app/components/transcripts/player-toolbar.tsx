import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/use-format';
import { PLAYBACK_SPEEDS } from '../../lib/use-media-player';

export type PhonePanel = 'export' | 'share';

const small =
  'rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50 aria-expanded:border-brand-500 aria-expanded:text-brand-700 aria-pressed:border-brand-500 aria-pressed:text-brand-700';

/**
 * Under the player: its speed (remembered in this browser), and on phones a smaller player and
 * the Export and Share panels — kept with the player at the top, so nobody scrolls past the
 * whole transcript to reach them.
 */
export function PlayerToolbar({
  speed,
  onSpeed,
  compact,
  onCompact,
  panel,
  onPanel,
  panelsId,
  canExport,
}: {
  /** null: no media, no speed to choose. */
  speed: number | null;
  onSpeed: (speed: number) => void;
  /** null: nothing to shrink (no video). */
  compact: boolean | null;
  onCompact: (compact: boolean) => void;
  panel: PhonePanel | null;
  onPanel: (panel: PhonePanel | null) => void;
  /** The element holding the panels (aria-controls). */
  panelsId: string;
  canExport: boolean;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const toggle = (which: PhonePanel) => onPanel(panel === which ? null : which);
  // A speed set in the browser's own menu is shown too.
  const speeds: readonly number[] =
    speed === null || (PLAYBACK_SPEEDS as readonly number[]).includes(speed)
      ? PLAYBACK_SPEEDS
      : [...PLAYBACK_SPEEDS, speed].sort((a, b) => a - b);
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="player-toolbar">
      {speed !== null ? (
        <label className="flex items-center gap-1 text-xs text-slate-600">
          {t('player.speed')}
          <select
            value={String(speed)}
            onChange={(e) => onSpeed(Number(e.target.value))}
            className="rounded-md border border-slate-300 bg-white py-0.5 pr-6 pl-1.5 text-xs text-slate-800"
            data-testid="player-speed"
          >
            {speeds.map((s) => (
              <option key={s} value={String(s)}>
                {`${fmt.number(s, 2)}×`}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {compact !== null ? (
        <button
          type="button"
          className={`${small} lg:hidden`}
          aria-pressed={compact}
          onClick={() => onCompact(!compact)}
          data-testid="player-compact"
        >
          {compact ? t('player.larger') : t('player.smaller')}
        </button>
      ) : null}
      <span className="ml-auto flex gap-2 lg:hidden">
        {canExport ? (
          <button
            type="button"
            className={small}
            aria-expanded={panel === 'export'}
            aria-controls={panelsId}
            onClick={() => toggle('export')}
            data-testid="phone-export"
          >
            {t('editor.exportTitle')}
          </button>
        ) : null}
        <button
          type="button"
          className={small}
          aria-expanded={panel === 'share'}
          aria-controls={panelsId}
          onClick={() => toggle('share')}
          data-testid="phone-share"
        >
          {t('pages.share.panel.title')}
        </button>
      </span>
    </div>
  );
}
