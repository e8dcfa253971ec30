import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/details';
import { pageMeta } from '../../lib/meta';
import { useLocale } from '../../lib/use-locale';
import { useAffiliate, useAffiliateGet } from '../../lib/use-affiliate';
import { LOCALE_TAGS } from '../../../common/locales';
import { formatMoney } from '../../../common/plans';
import type { CommissionKind } from '../../../common/record-states';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.affiliate.tabs.Details', { noindex: true });

const TYPES = ['commission', 'signup', 'click'] as const;
const PAGE_SIZE = 20;

interface RecordItem {
  id: string;
  code: string | null;
  created_at: string;
  customer?: string | null;
  paying?: boolean;
  kind?: CommissionKind;
  amount?: number;
  currency?: string;
  state?: string;
  available_at?: string;
}

export default function AffiliateDetails() {
  const { t } = useTranslation();
  const tag = LOCALE_TAGS[useLocale()];
  const { affiliate } = useAffiliate();
  const [type, setType] = useState<(typeof TYPES)[number]>('commission');
  const [code, setCode] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const data = useAffiliateGet<{ items: RecordItem[]; total: number }>('record-list', {
    type,
    code: code || undefined,
    from: from || undefined,
    to: to || undefined,
    page,
    page_size: PAGE_SIZE,
  });
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const when = (iso: string) =>
    new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const input = 'mt-1.5 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm';
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-4">
        <label className="text-sm font-medium text-slate-700">
          {t('affiliate.details.type')}
          <select
            className={input}
            value={type}
            onChange={(e) => reset(setType)(e.target.value as typeof type)}
            data-testid="details-type"
          >
            {TYPES.map((k) => (
              <option key={k} value={k}>
                {t(`affiliate.details.types.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-slate-700">
          {t('affiliate.assets.code')}
          <select className={input} value={code} onChange={(e) => reset(setCode)(e.target.value)}>
            <option value="">{t('affiliate.details.allCodes')}</option>
            {affiliate.codes.map((c) => (
              <option key={c.code}>{c.code}</option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-slate-700">
          {t('affiliate.details.from')}
          <input
            type="date"
            className={input}
            value={from}
            onChange={(e) => reset(setFrom)(e.target.value)}
          />
        </label>
        <label className="text-sm font-medium text-slate-700">
          {t('affiliate.details.to')}
          <input type="date" className={input} value={to} onChange={(e) => reset(setTo)(e.target.value)} />
        </label>
      </div>
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full min-w-[560px] text-left text-sm" data-testid="details-table">
          <thead className="bg-slate-50 text-xs text-slate-500">
            <tr>
              <th className="px-4 py-2 font-medium">{t('affiliate.details.date')}</th>
              <th className="px-4 py-2 font-medium">{t('affiliate.assets.code')}</th>
              {type !== 'click' ? (
                <th className="px-4 py-2 font-medium">{t('affiliate.details.customer')}</th>
              ) : null}
              {type === 'commission' ? (
                <>
                  <th className="px-4 py-2 font-medium">{t('affiliate.details.status')}</th>
                  <th className="px-4 py-2 text-right font-medium">{t('affiliate.details.amount')}</th>
                </>
              ) : null}
              {type === 'signup' ? (
                <th className="px-4 py-2 font-medium">{t('affiliate.details.paying')}</th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data?.items.map((r) => (
              <tr key={r.id}>
                <td className="px-4 py-2 text-slate-600">{when(r.created_at)}</td>
                <td className="px-4 py-2 font-mono text-xs">{r.code ?? '—'}</td>
                {type !== 'click' ? <td className="px-4 py-2">{r.customer ?? '—'}</td> : null}
                {type === 'commission' ? (
                  <>
                    <td className="px-4 py-2">
                      {r.kind === 'reversal' ? `${t('affiliate.details.reversal')} · ` : ''}
                      {t(`affiliate.details.states.${r.state}`)}
                    </td>
                    <td
                      className={`px-4 py-2 text-right tabular-nums ${(r.amount ?? 0) < 0 ? 'text-red-700' : ''}`}
                    >
                      {formatMoney({ amount: r.amount ?? 0, currency: r.currency ?? 'usd' }, tag)}
                    </td>
                  </>
                ) : null}
                {type === 'signup' ? (
                  <td className="px-4 py-2">
                    {r.paying ? t('affiliate.details.yes') : t('affiliate.details.no')}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {data && data.items.length === 0 ? (
          <p className="px-4 py-6 text-center text-sm text-slate-500">{t('affiliate.details.empty')}</p>
        ) : null}
      </div>
      <nav className="flex items-center justify-between text-sm" aria-label={t('affiliate.details.pages')}>
        <button
          type="button"
          disabled={page <= 1}
          onClick={() => setPage((p) => p - 1)}
          className="rounded-lg border border-slate-300 px-3 py-1.5 disabled:opacity-40"
        >
          {t('affiliate.details.previous')}
        </button>
        <span className="text-slate-600">{t('affiliate.details.pageOf', { page, pages })}</span>
        <button
          type="button"
          disabled={page >= pages}
          onClick={() => setPage((p) => p + 1)}
          className="rounded-lg border border-slate-300 px-3 py-1.5 disabled:opacity-40"
        >
          {t('affiliate.details.next')}
        </button>
      </nav>
    </div>
  );
}
