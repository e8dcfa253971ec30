import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../common/plans';

export interface SeriesPoint {
  month: string;
  clicks: number;
  signups: number;
  earnings: number;
}

/** Earnings per month as bars (SVG, no chart library), with the figures in a table for screen readers. */
export function EarningsChart({
  series,
  currency,
  locale,
}: {
  series: SeriesPoint[];
  currency: string;
  locale: string;
}) {
  const { t } = useTranslation();
  const max = Math.max(1, ...series.map((p) => p.earnings));
  const label = (month: string) =>
    new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' }).format(
      new Date(`${month}-01T00:00:00Z`),
    );
  const W = 900;
  const H = 160;
  const bar = W / series.length;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${W} ${H + 24}`}
        className="h-auto w-full"
        role="img"
        aria-label={t('affiliate.dashboard.chart')}
      >
        {series.map((p, i) => {
          const h = p.earnings > 0 ? Math.max(2, (p.earnings / max) * H) : 0;
          return (
            <g key={p.month}>
              <rect
                x={i * bar + bar * 0.2}
                y={H - h}
                width={bar * 0.6}
                height={h}
                rx={3}
                className="fill-brand-500"
              >
                <title>{`${label(p.month)}: ${formatMoney({ amount: p.earnings, currency }, locale)}`}</title>
              </rect>
              <text x={i * bar + bar / 2} y={H + 16} textAnchor="middle" className="fill-slate-500 text-xs">
                {label(p.month)}
              </text>
            </g>
          );
        })}
        <line x1={0} x2={W} y1={H} y2={H} className="stroke-slate-200" />
        {series.every((p) => p.earnings === 0) ? (
          <text x={W / 2} y={H / 2} textAnchor="middle" className="fill-slate-400 text-sm">
            {t('affiliate.dashboard.noEarnings')}
          </text>
        ) : null}
      </svg>
      {/* A table ignores width and overflow: the wrapper hides it without widening the page. */}
      <div className="sr-only">
        <table>
          <caption>{t('affiliate.dashboard.chart')}</caption>
          <thead>
            <tr>
              <th>{t('affiliate.dashboard.month')}</th>
              <th>{t('affiliate.dashboard.clicks')}</th>
              <th>{t('affiliate.dashboard.signups')}</th>
              <th>{t('affiliate.dashboard.earnings')}</th>
            </tr>
          </thead>
          <tbody>
            {series.map((p) => (
              <tr key={p.month}>
                <td>{label(p.month)}</td>
                <td>{p.clicks}</td>
                <td>{p.signups}</td>
                <td>{formatMoney({ amount: p.earnings, currency }, locale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
