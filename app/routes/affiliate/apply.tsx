import { useTranslation } from 'react-i18next';
import type { Route } from './+types/apply';
import { pageMeta } from '../../lib/meta';
import { PageFrame } from '../../components/layout/page-frame';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.affiliateApply.title', { noindex: true });

export default function Page() {
  const { t } = useTranslation();
  return (
    <PageFrame
      heading={t('pages.affiliateApply.heading')}
      subtitle={t('pages.affiliateApply.subtitle')}
      width="max-w-4xl"
    />
  );
}
