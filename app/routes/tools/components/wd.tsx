import { useTranslation } from 'react-i18next';
import type { Route } from './+types/wd';
import { pageMeta } from '../../../lib/meta';
import { PageFrame } from '../../../components/layout/page-frame';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.components.kinds.wd', { noindex: true });

export default function BlockGallery() {
  const { t } = useTranslation();
  return <PageFrame heading={t('pages.components.heading', { kind: t('pages.components.kinds.wd') })} />;
}
