import { useTranslation } from 'react-i18next';
import type { Route } from './+types/terms';
import { pageMeta } from '../../lib/meta';
import { PageFrame } from '../../components/layout/page-frame';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.terms.title');

export default function Page() {
  const { t } = useTranslation();
  return <PageFrame heading={t('pages.terms.heading')} width="max-w-4xl" />;
}
