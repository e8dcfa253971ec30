import { useTranslation } from 'react-i18next';
import type { Route } from './+types/settlement';
import { pageMeta } from '../../lib/meta';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.affiliate.tabs.Settlement', { noindex: true });

export default function AffiliateSettlement() {
  const { t } = useTranslation();
  return <h2 className="text-lg font-semibold text-slate-900">{t('pages.affiliate.tabs.Settlement')}</h2>;
}
