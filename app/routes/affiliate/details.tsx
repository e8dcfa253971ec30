import { useTranslation } from 'react-i18next';
import type { Route } from './+types/details';
import { pageMeta } from '../../lib/meta';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.affiliate.tabs.Details', { noindex: true });

export default function AffiliateDetails() {
  const { t } = useTranslation();
  return <h2 className="text-lg font-semibold text-slate-900">{t('pages.affiliate.tabs.Details')}</h2>;
}
