import { useEffect } from 'react';
import { NavLink, Outlet, redirect, useNavigate } from 'react-router';
import { useAffiliateRecord } from '../../lib/use-affiliate';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/layout';
import { pageMeta } from '../../lib/meta';
import { useLocalePath } from '../../lib/use-locale';
import { PageFrame } from '../../components/layout/page-frame';
import { collapseSlashes } from '../../../common/guard';

export const AFFILIATE_TABS = ['Dashboard', 'Assets', 'Details', 'Settlement'] as const;

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.affiliate.title', { noindex: true });

/** /affiliate itself opens the Dashboard tab. */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const pathname = collapseSlashes(url.pathname);
  if (/\/affiliate\/?$/.test(pathname)) {
    throw redirect(pathname.replace(/\/?$/, '/Dashboard') + url.search);
  }
  return null;
}

export default function AffiliateLayout() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const { affiliate, reload } = useAffiliateRecord();
  // Not in the programme yet: the tabs have nothing to show, the application form does.
  useEffect(() => {
    if (affiliate === null) void navigate(lp('/affiliate/apply'), { replace: true });
  }, [affiliate, navigate, lp]);
  return (
    <PageFrame heading={t('pages.affiliate.heading')}>
      <nav
        className="-mt-2 flex gap-1 overflow-x-auto border-b border-slate-200"
        aria-label={t('pages.affiliate.title')}
      >
        {AFFILIATE_TABS.map((tab) => (
          <NavLink
            key={tab}
            to={lp(`/affiliate/${tab}`)}
            className={({ isActive }) =>
              `whitespace-nowrap border-b-2 px-4 py-2.5 text-sm font-medium ${
                isActive
                  ? 'border-brand-600 text-brand-700'
                  : 'border-transparent text-slate-600 hover:text-slate-900'
              }`
            }
          >
            {t(`pages.affiliate.tabs.${tab}`)}
          </NavLink>
        ))}
      </nav>
      <div className="pt-6">
        {affiliate ? (
          <Outlet context={{ affiliate, reload }} />
        ) : (
          <p className="text-sm text-slate-500">{t('common.loading')}</p>
        )}
      </div>
    </PageFrame>
  );
}
