import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE,
  LOCALE_NAMES,
  LOCALE_TAGS,
  LOCALES,
  isLocale,
  localizePath,
  splitLocalePath,
} from '../../../common/locales';
import { useLocale } from '../../lib/use-locale';

/** Keeps the current page and switches its language; remembers the choice (docs/product.md#languages). */
export function LanguageSwitcher({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const lang = useLocale();
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <label className={`relative items-center ${className || 'inline-flex'}`}>
      <span className="sr-only">{t('nav.language')}</span>
      <svg
        aria-hidden
        viewBox="0 0 20 20"
        className="pointer-events-none absolute left-2 h-4 w-4 text-slate-500"
      >
        <path
          fill="currentColor"
          d="M10 2a8 8 0 100 16 8 8 0 000-16zm5.9 7h-2.95a12.6 12.6 0 00-1.1-4.7A6.02 6.02 0 0115.9 9zM10 4.04c.75.98 1.56 2.67 1.9 4.96H8.1c.34-2.29 1.15-3.98 1.9-4.96zM8.15 4.3A12.6 12.6 0 007.05 9H4.1a6.02 6.02 0 014.05-4.7zM4.1 11h2.95c.13 1.72.53 3.33 1.1 4.7A6.02 6.02 0 014.1 11zm5.9 4.96c-.75-.98-1.56-2.67-1.9-4.96h3.8c-.34 2.29-1.15 3.98-1.9 4.96zm1.85-.26c.57-1.37.97-2.98 1.1-4.7h2.95a6.02 6.02 0 01-4.05 4.7z"
        />
      </svg>
      <select
        data-testid="language-switcher"
        value={lang}
        onChange={(e) => {
          const next = e.target.value;
          if (!isLocale(next) || next === lang) return;
          window.dispatchEvent(new CustomEvent('i18n:beforeSwitch', { detail: { from: lang, to: next } }));
          document.cookie = `${LOCALE_COOKIE}=${next}; Max-Age=${LOCALE_COOKIE_MAX_AGE}; Path=/; SameSite=Lax`;
          const { rest } = splitLocalePath(location.pathname);
          void navigate(localizePath(rest, next) + location.search + location.hash);
        }}
        className="appearance-none rounded-md border border-slate-200 bg-white py-1.5 pl-8 pr-3 text-sm text-slate-700 hover:border-slate-300 focus:outline-none focus:ring-2 focus:ring-brand-500"
      >
        <LocaleOptions />
      </select>
    </label>
  );
}

/** The ten interface languages as a select's options, each named in its own language. */
export function LocaleOptions() {
  return LOCALES.map((l) => (
    <option key={l} value={l} lang={LOCALE_TAGS[l]}>
      {LOCALE_NAMES[l]}
    </option>
  ));
}
