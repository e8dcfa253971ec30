import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { SiteHeader } from '../components/layout/site-header';
import { SiteFooter } from '../components/layout/site-footer';
import { preloadRoutes } from '../lib/preload';

export default function DefaultLayout() {
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
      <SiteFooter />
    </div>
  );
}
