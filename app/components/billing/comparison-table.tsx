import { useTranslation } from 'react-i18next';
import { EXPORT_FORMATS, NUMERIC_LIMITS, RANK_LIMITS, RANKS } from '../../../common/ranks';
import { limitText } from './limit-text';
import { useFormat } from '../../lib/use-format';

/** Every limit of every rank, from the same table the server enforces. */
export function ComparisonTable() {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full min-w-[720px] text-left text-sm">
        <caption className="sr-only">{t('pages.pricing.compareTitle')}</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              <span className="sr-only">{t('pages.pricing.limit')}</span>
            </th>
            {RANKS.map((rank) => (
              <th key={rank} scope="col" className="px-4 py-3 font-semibold">
                {t(`ranks.${rank}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {NUMERIC_LIMITS.map((key) => (
            <tr key={key}>
              <th scope="row" className="px-4 py-3 font-medium text-slate-700">
                {t(`pages.pricing.rows.${key}`)}
              </th>
              {RANKS.map((rank) => (
                <td key={rank} className="px-4 py-3 text-slate-900">
                  {limitText(t, key, rank, fmt)}
                </td>
              ))}
            </tr>
          ))}
          {EXPORT_FORMATS.map((format) => (
            <tr key={format}>
              <th scope="row" className="px-4 py-3 font-medium text-slate-700">
                {t('pages.pricing.exportRow', { format: format.toUpperCase() })}
              </th>
              {RANKS.map((rank) => {
                const yes = RANK_LIMITS[rank].export_formats.includes(format);
                return (
                  <td key={rank} className={`px-4 py-3 ${yes ? 'text-brand-700' : 'text-slate-400'}`}>
                    <span aria-hidden="true">{yes ? '✓' : '—'}</span>
                    <span className="sr-only">
                      {yes ? t('pages.pricing.included') : t('pages.pricing.notIncluded')}
                    </span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
