import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { LockedFormat, StandardRank } from '../../../common/ranks';
import { useFormat } from '../../lib/use-format';
import { useLocalePath } from '../../lib/use-locale';

export function LockIcon({ className = 'h-3.5 w-3.5' }: { className?: string }) {
  return (
    <svg viewBox="0 0 16 16" className={className} fill="currentColor" aria-hidden>
      <path d="M8 1.5a3.5 3.5 0 0 0-3.5 3.5v2H4a1.5 1.5 0 0 0-1.5 1.5v5A1.5 1.5 0 0 0 4 15h8a1.5 1.5 0 0 0 1.5-1.5v-5A1.5 1.5 0 0 0 12 7h-.5V5A3.5 3.5 0 0 0 8 1.5Zm2 5.5H6V5a2 2 0 1 1 4 0v2Z" />
    </svg>
  );
}

/** A locked format's label in the format menu: "DOCX — Starter and up". */
export function useLockedLabel(): (lock: LockedFormat) => string {
  const { t } = useTranslation();
  return (lock) =>
    lock.rank
      ? t('exportLock.option', { format: lock.format.toUpperCase(), plan: t(`ranks.${lock.rank}`) })
      : t('exportLock.optionNoPlan', { format: lock.format.toUpperCase() });
}

/** Locked formats grouped by the cheapest plan that has them, in the order first met. */
export function byPlan(locked: readonly LockedFormat[]): Map<StandardRank | null, string[]> {
  const groups = new Map<StandardRank | null, string[]>();
  for (const lock of locked) groups.set(lock.rank, [...(groups.get(lock.rank) ?? []), lock.format]);
  return groups;
}

/**
 * The export formats the plan lacks, grouped by the cheapest plan that has them, with a link to
 * the plans: people learn a format exists before they need it, not from a refused download.
 */
export function LockedFormats({ locked }: { locked: readonly LockedFormat[] }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const to = useLocalePath();
  if (locked.length === 0) return null;
  const groups = byPlan(locked);
  return (
    <p className="mt-2 text-xs leading-5 text-slate-600" data-testid="locked-formats">
      <LockIcon className="mr-1 inline h-3.5 w-3.5 align-[-2px] text-slate-400" />
      {[...groups].map(([rank, formats]) => {
        const names = fmt.list(formats.map((f) => f.toUpperCase()));
        return (
          <span key={rank ?? 'none'} data-locked-rank={rank ?? ''} className="mr-2">
            {rank
              ? t('exportLock.hint', { formats: names, plan: t(`ranks.${rank}`) })
              : t('exportLock.hintNoPlan', { formats: names })}
          </span>
        );
      })}
      <Link
        to={to('/pricing')}
        className="font-medium whitespace-nowrap text-brand-700 underline hover:text-brand-800"
      >
        {t('exportLock.seePlans')}
      </Link>
    </p>
  );
}
