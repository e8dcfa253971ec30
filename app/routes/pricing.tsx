import { useTranslation } from 'react-i18next';
import type { Route } from './+types/pricing';
import { pageMeta } from '../lib/meta';
import { PageFrame } from '../components/layout/page-frame';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.pricing.title');

export default function Page() {
  const { t } = useTranslation();
  return (
    <PageFrame
      heading={t('pages.pricing.heading')}
      subtitle={t('pages.pricing.subtitle')}
      width="max-w-4xl"
    />
  );
}
