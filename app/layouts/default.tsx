import { useEffect } from 'react';
import { Outlet } from 'react-router';
import type { Route } from './+types/default';
import { SiteHeader } from '../components/layout/site-header';
import { SiteFooter } from '../components/layout/site-footer';
import { preloadRoutes } from '../lib/preload';
import { localeParam } from '../../common/locales';

/** The footer's tool links in the page's language. */
export async function loader({ params, context }: Route.LoaderArgs) {
  return {
    footerTools: await context.getFooterTools(localeParam(params.lang)),
  };
}

export default function DefaultLayout({ loaderData }: Route.ComponentProps) {
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 200));
    idle(
      () => void preloadRoutes(['pricing', 'login', 'register', 'dashboard', 'tools-slug', 'affiliation']),
    );
  }, []);
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter tools={loaderData.footerTools} />
    </div>
  );
}
