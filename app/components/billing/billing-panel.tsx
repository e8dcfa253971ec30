import { useTranslation } from 'react-i18next';
import type { OrderJson } from '../../../common/billing-types';
import { LOCALE_TAGS } from '../../../common/locales';
import { formatMoney } from '../../../common/plans';
import { useApiGet } from '../../lib/use-api-get';
import { useBillingRedirects, useBillingStatus } from '../../lib/use-billing';
import { useLocale } from '../../lib/use-locale';

/** The profile's billing part: the subscription's state, the Stripe portal, payments and refunds. */
export function BillingPanel() {
  const { t } = useTranslation();
  const lang = useLocale();
  const tag = LOCALE_TAGS[lang];
  const { status } = useBillingStatus(true);
  const redirects = useBillingRedirects();
  const orders = useApiGet<{ orders: OrderJson[] }>('/self-api/v1/billing/orders')?.orders ?? null;
  if (!status) return null;
  const date = (iso: string) => new Intl.DateTimeFormat(tag, { dateStyle: 'medium' }).format(new Date(iso));
  const sub = status.subscription;

  return (
    <div className="mt-5 space-y-4 border-t border-slate-100 pt-5 text-sm" data-testid="billing-panel">
      {sub?.payment_failed ? (
        <p className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-800" role="alert">
          {t('pages.profile.billing.paymentFailed')}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-slate-700">
          {sub && sub.current_period_end
            ? sub.cancel_at_period_end
              ? t('pages.profile.billing.ends', { date: date(sub.current_period_end) })
              : t('pages.profile.billing.renews', {
                  date: date(sub.current_period_end),
                  interval: t(`pages.pricing.${sub.interval === 'yearly' ? 'yearly' : 'monthly'}`),
                })
            : status.granted_until
              ? t('pages.profile.billing.grantedUntil', { date: date(status.granted_until) })
              : t('pages.profile.billing.noSubscription')}
        </p>
        {status.has_customer && status.payments_enabled ? (
          <button
            type="button"
            disabled={redirects.pending !== null}
            onClick={() => void redirects.portal()}
            className="rounded-lg border border-slate-300 px-3.5 py-2 font-semibold text-slate-800 hover:border-slate-400 disabled:opacity-60"
          >
            {redirects.pending ? t('pages.pricing.redirecting') : t('pages.profile.billing.manage')}
          </button>
        ) : null}
      </div>
      <div>
        <h3 className="font-semibold text-slate-900">{t('pages.profile.billing.history')}</h3>
        {orders && orders.length > 0 ? (
          <table className="mt-2 w-full text-left">
            <thead className="text-xs text-slate-500">
              <tr>
                <th className="py-1 font-medium">{t('pages.profile.billing.date')}</th>
                <th className="py-1 font-medium">{t('pages.profile.billing.description')}</th>
                <th className="py-1 text-right font-medium">{t('pages.profile.billing.amount')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {orders.map((o) => (
                <tr key={o.id} data-order={o.kind}>
                  <td className="py-1.5 text-slate-600">{date(o.paid_at)}</td>
                  <td className="py-1.5 text-slate-800">
                    {o.kind === 'refund'
                      ? t('pages.profile.billing.refund')
                      : o.rank
                        ? `${t(`ranks.${o.rank}`)} · ${t(`pages.pricing.${o.interval === 'yearly' ? 'yearly' : 'monthly'}`)}`
                        : t('pages.profile.billing.payment')}
                  </td>
                  <td
                    className={`py-1.5 text-right tabular-nums ${o.kind === 'refund' ? 'text-red-700' : 'text-slate-900'}`}
                  >
                    {o.kind === 'refund' ? '−' : ''}
                    {formatMoney({ amount: o.amount, currency: o.currency }, tag)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="mt-1 text-slate-500">{t('pages.profile.billing.noPayments')}</p>
        )}
      </div>
    </div>
  );
}
