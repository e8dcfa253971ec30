import { collapseSlashes } from './guard';
import { detectLocale, isLocale, localizePath, splitLocalePath, type Locale } from './locales';

export interface LocaleDecision {
  redirect?: { location: string; status: 301 | 302 };
  /** Locale to remember in the i18n_redirected cookie. */
  remember?: Locale;
}

/**
 * Where a document request should go (docs/product.md#languages): /en/… is permanently the unprefixed path;
 * a remembered locale wins over the path; on a first visit an unprefixed path follows the
 * browser languages while an explicit prefix is honoured. Crawlers are never redirected, so
 * every language's URL stays indexable.
 */
export function decideLocale(input: {
  pathname: string;
  search: string;
  cookie: string | null;
  acceptLanguage: string | null;
  isBot: boolean;
}): LocaleDecision {
  const { search, cookie, acceptLanguage, isBot } = input;
  // Every location below is built from this path: never `//host`, whatever the request held.
  const pathname = collapseSlashes(input.pathname);
  const en = withoutEnPrefix(pathname);
  if (en !== null) return { redirect: { location: en + search, status: 301 } };
  if (isBot) return {};
  const { lang, rest, prefixed } = splitLocalePath(pathname);
  let target: Locale;
  if (isLocale(cookie)) target = cookie;
  else if (prefixed) return { remember: lang };
  else target = detectLocale(null, acceptLanguage);
  const remember = isLocale(cookie) ? undefined : target;
  if (target === lang) return remember ? { remember } : {};
  return { redirect: { location: localizePath(rest, target) + search, status: 302 }, remember };
}

/** '/en/x' → '/x' and '/en' → '/' (English has no prefix); null for any other path. */
export function withoutEnPrefix(pathname: string): string | null {
  const m = /^\/en(\/.*)?$/.exec(collapseSlashes(pathname));
  return m ? m[1] || '/' : null;
}
