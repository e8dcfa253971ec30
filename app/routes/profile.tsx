import { useTranslation } from 'react-i18next';
import type { Route } from './+types/profile';
import { pageMeta } from '../lib/meta';
import { PageFrame } from '../components/layout/page-frame';
import { useViewer } from '../lib/use-viewer';
import { LOCALE_NAMES, isLocale } from '../../common/locales';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.profile.title', { noindex: true });

export default function Profile() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const rows: [string, string][] = viewer
    ? [
        [t('pages.profile.email'), viewer.email],
        [t('pages.profile.name'), viewer.name ?? '—'],
        [t('pages.profile.plan'), viewer.rank_name],
        [
          t('pages.profile.language'),
          isLocale(viewer.language) ? LOCALE_NAMES[viewer.language] : viewer.language,
        ],
      ]
    : [];
  return (
    <PageFrame heading={t('pages.profile.heading')} width="max-w-3xl">
      <dl className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
        {rows.map(([k, v]) => (
          <div key={k} className="grid grid-cols-3 gap-4 px-5 py-4">
            <dt className="text-sm font-medium text-slate-500">{k}</dt>
            <dd className="col-span-2 break-all text-sm text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
    </PageFrame>
  );
}
