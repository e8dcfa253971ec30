import { useTranslation } from 'react-i18next';
import type { Route } from './+types/privacy-policy';
import { pageMeta } from '../../lib/meta';
import { PageFrame } from '../../components/layout/page-frame';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.privacy.title');

export default function Page() {
  const { t } = useTranslation();
  return <PageFrame heading={t('pages.privacy.heading')} width="max-w-4xl" />;
}
