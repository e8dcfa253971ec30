import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatMoney, type BillingInterval, type PlanJson } from '../../../common/plans';
import { RANK_LIMITS } from '../../../common/ranks';
import { useLocalePath } from '../../lib/use-locale';
import { limitText } from './limit-text';
import { useFormat } from '../../lib/use-format';

export type PlanAction =
  | { kind: 'current' }
  | { kind: 'start' }
  | { kind: 'signin' }
  | { kind: 'checkout' }
  | { kind: 'portal' }
  | { kind: 'contact' }
  | { kind: 'unavailable' };

const HIGHLIGHT = ['minutes_per_month', 'max_file_mb', 'max_duration_minutes', 'export_formats'] as const;
const SALES_EMAIL = 'sales@clipscribe.app';

export function PlanCard({
  plan,
  interval,
  intlLocale,
  action,
  pending,
  onCheckout,
  onPortal,
}: {
  plan: PlanJson;
  interval: BillingInterval;
  intlLocale: string;
  action: PlanAction;
  pending: boolean;
  onCheckout(): void;
  onPortal(): void;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const lp = useLocalePath();
  const price = plan.prices[interval];
  const popular = plan.rank === 'BASIC';
  const perMonth =
    price && interval === 'yearly' ? { ...price, amount: Math.round(price.amount / 12) } : null;
  const button =
    'mt-6 block w-full rounded-lg px-4 py-2.5 text-center text-sm font-semibold transition disabled:cursor-not-allowed disabled:opacity-60';
  const primary = `${button} bg-brand-600 text-white hover:bg-brand-700`;
  const secondary = `${button} border border-slate-300 text-slate-800 hover:border-slate-400`;

  return (
    <article
      className={`flex flex-col rounded-2xl border bg-white p-6 ${popular ? 'border-brand-500 shadow-lg shadow-brand-900/10' : 'border-slate-200'}`}
      data-plan={plan.rank}
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-slate-900">{t(`ranks.${plan.rank}`)}</h2>
        {popular ? (
          <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700">
            {t('pages.pricing.popular')}
          </span>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-slate-600">
        {t(`pages.pricing.taglines.${plan.rank}`, { seats: RANK_LIMITS[plan.rank].seats })}
      </p>
      <div className="mt-5 min-h-16">
        {plan.rank === 'Enterprise' && !price ? (
          <p className="text-2xl font-bold text-slate-900">{t('pages.pricing.custom')}</p>
        ) : price ? (
          <>
            <p className="text-slate-900">
              <span className="text-3xl font-bold" data-testid={`price-${plan.rank}`}>
                {formatMoney(price, intlLocale)}
              </span>
              <span className="ml-1 text-sm text-slate-500">
                {plan.rank === 'Free'
                  ? t('pages.pricing.forever')
                  : interval === 'monthly'
                    ? t('pages.pricing.perMonth')
                    : t('pages.pricing.perYear')}
              </span>
            </p>
            {perMonth && plan.rank !== 'Free' ? (
              <p className="mt-1 text-xs text-slate-500">
                {t('pages.pricing.billedYearly', { amount: formatMoney(perMonth, intlLocale) })}
              </p>
            ) : null}
          </>
        ) : null}
      </div>
      <ul className="mt-4 flex-1 space-y-2 text-sm text-slate-700">
        {HIGHLIGHT.map((key) => (
          <li key={key} className="flex gap-2">
            <span aria-hidden="true" className="text-brand-600">
              ✓
            </span>
            <span>
              {t(`pages.pricing.rows.${key}`)}:{' '}
              <strong className="font-semibold">{limitText(t, key, plan.rank, fmt)}</strong>
            </span>
          </li>
        ))}
      </ul>
      {action.kind === 'current' ? (
        <p className={`${secondary} pointer-events-none`} aria-current="true">
          {t('pages.pricing.current')}
        </p>
      ) : action.kind === 'start' ? (
        <Link to={lp('/register')} className={secondary}>
          {t('pages.pricing.startFree')}
        </Link>
      ) : action.kind === 'signin' ? (
        <Link
          to={`${lp('/login')}?from=${encodeURIComponent(lp('/pricing'))}`}
          className={popular ? primary : secondary}
        >
          {t('pages.pricing.choose', { plan: t(`ranks.${plan.rank}`) })}
        </Link>
      ) : action.kind === 'checkout' ? (
        <button
          type="button"
          className={popular ? primary : secondary}
          disabled={pending}
          onClick={onCheckout}
        >
          {pending
            ? t('pages.pricing.redirecting')
            : t('pages.pricing.choose', { plan: t(`ranks.${plan.rank}`) })}
        </button>
      ) : action.kind === 'portal' ? (
        <button type="button" className={secondary} disabled={pending} onClick={onPortal}>
          {pending ? t('pages.pricing.redirecting') : t('pages.pricing.change')}
        </button>
      ) : action.kind === 'contact' ? (
        <a
          href={`mailto:${SALES_EMAIL}?subject=${encodeURIComponent(t(`ranks.${plan.rank}`))}`}
          className={secondary}
        >
          {t('pages.pricing.contact')}
        </a>
      ) : (
        <p className={`${secondary} pointer-events-none text-slate-500`}>{t('pages.pricing.unavailable')}</p>
      )}
    </article>
  );
}
