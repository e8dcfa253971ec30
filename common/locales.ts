// The ten interface languages (docs/product.md#languages). en is the default and carries no path prefix.
export const LOCALES = ['en', 'de', 'es', 'fr', 'ja', 'ko', 'pt', 'tw', 'vi', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
export const LOCALE_COOKIE = 'i18n_redirected';
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 3600;

/** BCP-47 tags for <html lang>, hreflang and Intl formatting. */
export const LOCALE_TAGS: Record<Locale, string> = {
  en: 'en',
  de: 'de',
  es: 'es',
  fr: 'fr',
  ja: 'ja',
  ko: 'ko',
  pt: 'pt',
  tw: 'zh-Hant',
  vi: 'vi',
  zh: 'zh-Hans',
};

/** Each language's own name, for the switcher. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  ja: '日本語',
  ko: '한국어',
  pt: 'Português',
  tw: '繁體中文',
  vi: 'Tiếng Việt',
  zh: '简体中文',
};

/** Sent by the UI's API client: the language of the page the call comes from. */
export const PAGE_LANG_HEADER = 'x-page-lang';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Maps one Accept-Language tag to our locale; Chinese splits by script/region. */
export function localeFromTag(tag: string): Locale | null {
  const t = tag.trim().toLowerCase();
  if (!t) return null;
  if (t.startsWith('zh')) {
    return /hant|-tw|-hk|-mo/.test(t) ? 'tw' : 'zh';
  }
  const base = t.split('-')[0] ?? '';
  return isLocale(base) ? base : null;
}

/** Parses Accept-Language honouring q-values; returns the best supported locale. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag, weight: Number.isFinite(weight) ? weight : 0, i };
    })
    .filter((x) => x.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.i - b.i);
  for (const { tag } of ranked) {
    const l = localeFromTag(tag);
    if (l) return l;
  }
  return null;
}

/** Locale for a first visit: cookie, then browser languages, then en. */
/** The language of a route's optional `:lang` segment (absent = English). */
export function localeParam(value: string | undefined): Locale {
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

export function detectLocale(
  cookieValue: string | null | undefined,
  acceptLanguage: string | null | undefined,
): Locale {
  if (isLocale(cookieValue)) return cookieValue;
  return localeFromAcceptLanguage(acceptLanguage) ?? DEFAULT_LOCALE;
}

/** Splits '/de/login' into { lang: 'de', rest: '/login' }; unprefixed paths are en. */
export function splitLocalePath(pathname: string): { lang: Locale; rest: string; prefixed: boolean } {
  const m = /^\/([a-z]{2})(?=\/|$)(.*)$/.exec(pathname);
  if (m && isLocale(m[1])) {
    return { lang: m[1], rest: m[2] || '/', prefixed: true };
  }
  return { lang: DEFAULT_LOCALE, rest: pathname || '/', prefixed: false };
}

/** The path of `rest` (unprefixed) in `lang`. */
export function localizePath(rest: string, lang: Locale): string {
  const clean = rest.startsWith('/') ? rest : `/${rest}`;
  if (lang === DEFAULT_LOCALE) return clean;
  return clean === '/' ? `/${lang}` : `/${lang}${clean}`;
}
