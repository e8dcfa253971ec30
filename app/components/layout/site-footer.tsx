import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLocalePath, useRootData } from '../../lib/use-locale';
import { Logo } from './logo';
import type { FooterToolsJson } from '../../../common/tool-content';

export function SiteFooter({ tools = { groups: [] } }: { tools?: FooterToolsJson }) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const app = useRootData()?.config.appName ?? 'ClipScribe';
  const col = 'text-sm text-slate-600 hover:text-slate-900';
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      {tools.groups.length > 0 ? (
        <nav
          aria-label={t('footer.tools')}
          className="mx-auto grid max-w-6xl gap-8 border-b border-slate-200 px-4 py-10 sm:grid-cols-2 sm:px-6 lg:grid-cols-4"
        >
          {tools.groups.map((g) => (
            <div key={g.group}>
              <h2 className="text-sm font-semibold text-slate-900">{t(`footer.toolGroups.${g.group}`)}</h2>
              <ul className="mt-3 space-y-2">
                {g.tools.map((tool) => (
                  <li key={tool.slug}>
                    <Link className={col} to={lp(`/tools/${tool.slug}`)}>
                      {tool.nav}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      ) : null}
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div className="md:col-span-2">
          <Logo />
          <p className="mt-3 max-w-sm text-sm text-slate-600">{t('footer.tagline')}</p>
        </div>
        <div>
          <h2 className="text-sm font-semibold text-slate-900">{t('footer.product')}</h2>
          <ul className="mt-3 space-y-2">
            <li>
              <Link className={col} to={lp('/pricing')}>
                {t('nav.pricing')}
              </Link>
            </li>
            <li>
              <Link className={col} to={lp('/affiliation')}>
                {t('footer.affiliation')}
              </Link>
            </li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold text-slate-900">{t('footer.legal')}</h2>
          <ul className="mt-3 space-y-2">
            <li>
              <Link className={col} to={lp('/terms')}>
                {t('footer.terms')}
              </Link>
            </li>
            <li>
              <Link className={col} to={lp('/privacy-policy')}>
                {t('footer.privacy')}
              </Link>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-slate-200 py-6 text-center text-xs text-slate-500">
        {t('footer.rights', { year: new Date().getFullYear(), app })}
      </div>
    </footer>
  );
}
