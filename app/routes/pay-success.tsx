import { useTranslation } from 'react-i18next';
import type { Route } from './+types/pay-success';
import { pageMeta } from '../lib/meta';
import { PageFrame } from '../components/layout/page-frame';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.paySuccess.title', { noindex: true });

export default function Page() {
  const { t } = useTranslation();
  return (
    <PageFrame
      heading={t('pages.paySuccess.heading')}
      subtitle={t('pages.paySuccess.text')}
      width="max-w-4xl"
    />
  );
}
