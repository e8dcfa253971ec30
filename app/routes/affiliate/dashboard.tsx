import { useTranslation } from 'react-i18next';
import type { Route } from './+types/dashboard';
import { pageMeta } from '../../lib/meta';
import { useLocale } from '../../lib/use-locale';
import { useAffiliateGet, type BalanceJson } from '../../lib/use-affiliate';
import { EarningsChart, type SeriesPoint } from '../../components/affiliate/earnings-chart';
import { LOCALE_TAGS } from '../../../common/locales';
import { formatMoney } from '../../../common/plans';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.affiliate.tabs.Dashboard', { noindex: true });

interface Summary {
  balances: BalanceJson[];
  clicks: number;
  signups: number;
  customers: number;
  conversion: number;
  currency: string;
  series: SeriesPoint[];
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-bold text-slate-900 tabular-nums" data-testid={testId}>
        {value}
      </p>
    </div>
  );
}

export default function AffiliateDashboard() {
  const { t } = useTranslation();
  const tag = LOCALE_TAGS[useLocale()];
  const summary = useAffiliateGet<Summary>('commission');
  if (!summary) return <p className="text-sm text-slate-500">{t('common.loading')}</p>;
  const money = summary.balances.find((b) => b.currency === summary.currency) ?? {
    currency: summary.currency,
    pending: 0,
    available: 0,
    in_payout: 0,
    paid: 0,
  };
  const fmt = (amount: number) => formatMoney({ amount, currency: money.currency }, tag);
  const num = new Intl.NumberFormat(tag);
  return (
    <div className="space-y-6">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Stat
          label={t('affiliate.dashboard.clicks')}
          value={num.format(summary.clicks)}
          testId="stat-clicks"
        />
        <Stat
          label={t('affiliate.dashboard.signups')}
          value={num.format(summary.signups)}
          testId="stat-signups"
        />
        <Stat
          label={t('affiliate.dashboard.customers')}
          value={num.format(summary.customers)}
          testId="stat-customers"
        />
        <Stat
          label={t('affiliate.dashboard.conversion')}
          value={new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 1 }).format(
            summary.conversion,
          )}
          testId="stat-conversion"
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <Stat label={t('affiliate.dashboard.pending')} value={fmt(money.pending)} testId="stat-pending" />
        <Stat
          label={t('affiliate.dashboard.available')}
          value={fmt(money.available)}
          testId="stat-available"
        />
        <Stat
          label={t('affiliate.dashboard.paid')}
          value={fmt(money.paid + money.in_payout)}
          testId="stat-paid"
        />
      </div>
      <section className="rounded-xl border border-slate-200 bg-white p-5" aria-labelledby="chart-title">
        <h2 id="chart-title" className="font-semibold text-slate-900">
          {t('affiliate.dashboard.chart')}
        </h2>
        <div className="mt-4">
          <EarningsChart series={summary.series} currency={money.currency} locale={tag} />
        </div>
      </section>
    </div>
  );
}
