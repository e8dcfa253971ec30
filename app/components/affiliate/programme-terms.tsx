import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../common/plans';
import { LOCALE_TAGS } from '../../../common/locales';
import { useLocale, useRootData } from '../../lib/use-locale';

/** The programme's numbers as the texts use them: {{percent}}, {{months}}, {{days}}, {{minimum}}. */
export function useProgrammeValues() {
  const lang = useLocale();
  const a = useRootData()?.config.affiliate ?? {
    percent: 30,
    windowMonths: 12,
    holdDays: 30,
    minPayout: 5000,
  };
  return {
    percent: a.percent,
    months: a.windowMonths,
    days: a.holdDays,
    minimum: formatMoney({ amount: a.minPayout, currency: 'usd' }, LOCALE_TAGS[lang]),
  };
}

const TERMS = [
  'commission',
  'window',
  'hold',
  'payout',
  'refunds',
  'self',
  'conduct',
  'disclosure',
  'changes',
] as const;

/** The programme terms an affiliate accepts (also shown on /affiliation). */
export function ProgrammeTerms() {
  const { t } = useTranslation();
  const values = useProgrammeValues();
  return (
    <ol className="mt-4 list-decimal space-y-2 pl-5 text-sm leading-6 text-slate-700">
      {TERMS.map((key) => (
        <li key={key}>{t(`affiliate.terms.${key}`, values)}</li>
      ))}
    </ol>
  );
}
