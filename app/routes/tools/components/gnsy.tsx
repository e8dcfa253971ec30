import { useTranslation } from 'react-i18next';
import type { Route } from './+types/gnsy';
import { pageMeta } from '../../../lib/meta';
import { PageFrame } from '../../../components/layout/page-frame';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.components.kinds.gnsy', { noindex: true });

export default function BlockGallery() {
  const { t } = useTranslation();
  return <PageFrame heading={t('pages.components.heading', { kind: t('pages.components.kinds.gnsy') })} />;
}
