import { useEffect } from 'react';
import { Outlet, redirect, useLocation } from 'react-router';
import { api } from '../lib/api';
import { clearUserState, refreshUserState } from '../lib/user-state';
import { readCookie, referralCookieFor } from '../../common/cookies';
import { useRootData } from '../lib/use-locale';
import type { Route } from './+types/lang';
import { isLocale } from '../../common/locales';
import { guardRedirect } from '../../common/guard';
import { withoutEnPrefix } from '../../common/locale-redirect';
import { notFound } from '../lib/not-found';
import { SiteHeader } from '../components/layout/site-header';
import { SiteFooter } from '../components/layout/site-footer';
import { ErrorView } from '../components/layout/error-view';

// The `:lang?` parent of every page: validates the prefix, applies route rules and the locale
// redirect, and runs the login guard on every navigation (document or data request), reading
// the session through the context.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (params.lang !== undefined && !isLocale(params.lang)) {
    throw notFound('unknown', url.pathname + url.search);
  }
  if (params.lang === 'en') {
    throw redirect((withoutEnPrefix(url.pathname) ?? '/') + url.search, 301);
  }
  // Route rules and the language redirect: the server's one decision, on page loads (where the
  // server already applied it) and on client-side navigations alike.
  if (request.method === 'GET') {
    const moved = await context.pageRedirect(url.pathname + url.search);
    if (moved) {
      const headers = new Headers();
      for (const cookie of moved.cookies) headers.append('Set-Cookie', cookie);
      throw redirect(moved.location, { status: moved.status, headers });
    }
  }
  const viewer = await context.getViewer();
  const target = guardRedirect(url.pathname, url.search, !!viewer);
  if (target) throw redirect(target);
  return { viewer };
}

export const shouldRevalidate = () => true;

/**
 * docs/product.md#referrals: a ?ref on any page sends the click call and, when none is set, writes the referral
 * cookie — the server does it for page loads, this for client-side navigations (same rule).
 */
function useReferralClick() {
  const { search } = useLocation();
  const crawler = useRootData()?.crawler ?? false;
  const ref = new URLSearchParams(search).get('ref');
  useEffect(() => {
    if (!ref) return;
    const cookie = referralCookieFor(`?${new URLSearchParams({ ref })}`, document.cookie, crawler);
    if (cookie) document.cookie = cookie;
    void api
      .post('/common-api/v1/distribution/click', { distribution_code: ref }, { handleErrors: true })
      .catch(() => undefined);
  }, [ref, crawler]);
}

export default function LangRoute({ loaderData }: Route.ComponentProps) {
  const loggedIn = !!loaderData.viewer;
  // Mirror the session into the client state cookies (docs/product.md#browser-state) once per login state.
  useEffect(() => {
    if (loggedIn) void refreshUserState();
    else if (readCookie(document.cookie, 'isLogin') === '1') clearUserState();
  }, [loggedIn]);
  useReferralClick();
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main id="main" className="flex-1">
        <ErrorView error={error} />
      </main>
      <SiteFooter />
    </div>
  );
}
