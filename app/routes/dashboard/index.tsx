import { useTranslation } from 'react-i18next';
import type { Route } from './+types/index';
import { pageMeta } from '../../lib/meta';
import { PageFrame } from '../../components/layout/page-frame';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.dashboard.title', { noindex: true });

export default function Dashboard() {
  const { t } = useTranslation();
  return (
    <PageFrame heading={t('pages.dashboard.heading')}>
      <div className="flex flex-col items-center rounded-2xl border-2 border-dashed border-slate-200 px-6 py-16 text-center">
        <svg viewBox="0 0 48 48" className="h-12 w-12 text-brand-500" aria-hidden>
          <path fill="currentColor" d="M24 6l10 10h-7v12h-6V16h-7L24 6zM8 30h6v6h20v-6h6v12H8V30z" />
        </svg>
        <h2 className="mt-4 text-lg font-semibold text-slate-900">{t('pages.dashboard.emptyTitle')}</h2>
        <p className="mt-1 max-w-sm text-sm text-slate-600">{t('pages.dashboard.emptyText')}</p>
      </div>
    </PageFrame>
  );
}
