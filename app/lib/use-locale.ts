import { useCallback } from 'react';
import { useRouteLoaderData } from 'react-router';
import { DEFAULT_LOCALE, localizePath, type Locale } from '../../common/locales';
import type { PublicConfig } from '../../common/app-context';

export interface RootData {
  lang: Locale;
  /** null for English, whose messages are bundled. */
  messages: Record<string, unknown> | null;
  /** The request came from a crawler (its user agent, checked on the server). */
  crawler: boolean;
  config: PublicConfig;
}

export function useRootData(): RootData | undefined {
  return useRouteLoaderData('root') as RootData | undefined;
}

export function useLocale(): Locale {
  return useRootData()?.lang ?? DEFAULT_LOCALE;
}

/** Builds links in the current language: lp('/pricing') → '/de/pricing'. */
export function useLocalePath(): (path: string) => string {
  const lang = useLocale();
  // Stable per language, so effects that depend on it do not re-run on every render.
  return useCallback((path: string) => localizePath(path, lang), [lang]);
}
