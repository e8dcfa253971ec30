import { useTranslation } from 'react-i18next';
import type { PermissionsQuota } from '../../lib/user-state';
import { useFormat } from '../../lib/use-format';

/** Minutes used and left in the current period. */
export function QuotaMeter({ quota }: { quota: PermissionsQuota | null }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  if (!quota) return null;
  // The same rounding as the profile's, in the page's number format.
  const used = fmt.minutes(quota.minutes_used);
  if (quota.minutes_per_month === null) {
    return <p className="text-sm text-slate-600">{t('transcripts.quota.unlimited', { used })}</p>;
  }
  const percent = quota.minutes_per_month ? (quota.minutes_used / quota.minutes_per_month) * 100 : 100;
  return (
    <div className="w-full max-w-xs" data-testid="quota">
      <p className="text-sm text-slate-600">
        {t('transcripts.quota.used', { used, total: fmt.number(quota.minutes_per_month) })}
      </p>
      <div className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-slate-200" aria-hidden>
        <div
          className={`h-full rounded-full ${percent >= 90 ? 'bg-red-500' : 'bg-brand-500'}`}
          style={{ width: `${Math.min(100, percent)}%` }}
        />
      </div>
    </div>
  );
}
