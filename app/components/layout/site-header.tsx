import { Link, NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLocalePath } from '../../lib/use-locale';
import { useViewer } from '../../lib/use-viewer';
import { api } from '../../lib/api';
import { clearUserState } from '../../lib/user-state';
import { Logo } from './logo';
import { LanguageSwitcher } from './language-switcher';
import { WorkspaceSwitcher } from '../workspaces/workspace-switcher';

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap ${isActive ? 'text-brand-700' : 'text-slate-600 hover:text-slate-900'}`;

export function SiteHeader() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const viewer = useViewer();
  const logout = async () => {
    try {
      await api.del('/common-api/v1/logout', undefined, { handleErrors: true });
    } finally {
      clearUserState();
      window.location.assign(lp('/'));
    }
  };
  const links = (
    <>
      <NavLink to={lp('/pricing')} className={navClass} prefetch="intent">
        {t('nav.pricing')}
      </NavLink>
      <NavLink to={lp('/affiliation')} className={navClass} prefetch="intent">
        {t('nav.affiliate')}
      </NavLink>
    </>
  );
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2">
        {t('nav.skip')}
      </a>
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:gap-4 sm:px-6">
        <div className="flex items-center gap-6">
          <Logo />
          <nav className="hidden items-center gap-1 md:flex" aria-label={t('nav.menu')}>
            {links}
          </nav>
        </div>
        <div className="flex items-center gap-2">
          <LanguageSwitcher className="hidden sm:inline-flex" />
          {viewer ? (
            <>
              <WorkspaceSwitcher viewer={viewer} />
              {/* On phones the workspace switcher takes its place; the menu below has it. */}
              <NavLink
                to={lp('/dashboard')}
                className={(s) => `hidden sm:block ${navClass(s)}`}
                data-testid="nav-dashboard"
              >
                {t('nav.dashboard')}
              </NavLink>
              <details className="relative">
                <summary
                  className="flex h-9 w-9 cursor-pointer list-none items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-700"
                  aria-label={t('nav.account')}
                  data-testid="account-menu"
                >
                  {(viewer.name || viewer.email).slice(0, 1).toUpperCase()}
                </summary>
                <div className="absolute right-0 mt-2 w-56 rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
                  <p className="truncate px-3 py-2 text-xs text-slate-500">{viewer.email}</p>
                  <Link to={lp('/profile')} className="block rounded-md px-3 py-2 text-sm hover:bg-slate-50">
                    {t('nav.profile')}
                  </Link>
                  <Link
                    to={lp('/affiliate/Dashboard')}
                    className="block rounded-md px-3 py-2 text-sm hover:bg-slate-50"
                  >
                    {t('nav.affiliate')}
                  </Link>
                  <button
                    type="button"
                    onClick={() => void logout()}
                    className="block w-full rounded-md px-3 py-2 text-left text-sm hover:bg-slate-50"
                    data-testid="logout"
                  >
                    {t('nav.logout')}
                  </button>
                </div>
              </details>
            </>
          ) : (
            <>
              <Link
                to={lp('/login')}
                className="hidden px-3 py-2 text-sm font-medium text-slate-700 hover:text-slate-900 sm:block"
              >
                {t('nav.login')}
              </Link>
              <Link
                to={lp('/register')}
                className="hidden whitespace-nowrap rounded-lg bg-brand-600 px-3.5 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 min-[420px]:block"
              >
                {t('nav.signup')}
              </Link>
            </>
          )}
          <details className="relative md:hidden">
            <summary
              className="flex h-9 w-9 cursor-pointer list-none items-center justify-center rounded-md text-slate-700 hover:bg-slate-100"
              aria-label={t('nav.menu')}
            >
              <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden>
                <path fill="currentColor" d="M3 5h14v2H3zm0 4h14v2H3zm0 4h14v2H3z" />
              </svg>
            </summary>
            <div className="absolute right-0 mt-2 flex w-56 flex-col rounded-lg border border-slate-200 bg-white p-2 shadow-lg">
              {viewer ? (
                <NavLink to={lp('/dashboard')} className={(s) => `sm:hidden ${navClass(s)}`}>
                  {t('nav.dashboard')}
                </NavLink>
              ) : null}
              {links}
              {!viewer ? (
                <>
                  <Link to={lp('/login')} className="rounded-md px-3 py-2 text-sm font-medium text-slate-600">
                    {t('nav.login')}
                  </Link>
                  <Link
                    to={lp('/register')}
                    className="rounded-md px-3 py-2 text-sm font-semibold text-brand-700"
                  >
                    {t('nav.signup')}
                  </Link>
                </>
              ) : null}
              <LanguageSwitcher className="mt-2 inline-flex" />
            </div>
          </details>
        </div>
      </div>
    </header>
  );
}
