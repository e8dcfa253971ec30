import { useTranslation } from 'react-i18next';
import type { Route } from './+types/dashboard';
import { pageMeta } from '../../lib/meta';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.affiliate.tabs.Dashboard', { noindex: true });

export default function AffiliateDashboard() {
  const { t } = useTranslation();
  return <h2 className="text-lg font-semibold text-slate-900">{t('pages.affiliate.tabs.Dashboard')}</h2>;
}
