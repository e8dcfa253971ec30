import type { MetaDescriptor } from 'react-router';
import { LOCALES, LOCALE_TAGS, localizePath, splitLocalePath, type Locale } from '../../common/locales';
import type { RootData } from './use-locale';
import en from '../locales/en.json';

interface MatchLike {
  id: string;
  data?: unknown;
  loaderData?: unknown;
}

function lookup(messages: Record<string, unknown> | undefined, key: string): string {
  let cur: unknown = messages;
  for (const part of key.split('.')) {
    if (cur && typeof cur === 'object') cur = (cur as Record<string, unknown>)[part];
    else return key;
  }
  return typeof cur === 'string' ? cur : key;
}

export function rootDataFrom(matches: readonly (MatchLike | undefined)[]): RootData | undefined {
  const root = matches.find((m) => m?.id === 'root');
  return (root?.loaderData ?? root?.data) as RootData | undefined;
}

/** Translated title and description plus hreflang alternates for the current page. */
export function pageMeta(
  args: { matches: readonly (MatchLike | undefined)[]; location: { pathname: string } },
  titleKey: string,
  opts: { noindex?: boolean; descriptionKey?: string; name?: string } = {},
): MetaDescriptor[] {
  const root = rootDataFrom(args.matches);
  const app = root?.config.appName ?? 'ClipScribe';
  const messages = root?.messages ?? en;
  // A page about one thing (a transcript) is named after it, so tabs can be told apart.
  const title = `${opts.name ?? lookup(messages, titleKey)} | ${app}`;
  const description = lookup(messages, opts.descriptionKey ?? 'meta.description');
  const base = siteOrigin(root);
  return [
    { title },
    { name: 'description', content: description },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:site_name', content: app },
    ...(opts.noindex ? [{ name: 'robots', content: 'noindex' }] : []),
    ...languageLinks(base, args.location.pathname),
  ];
}

/** The site's absolute origin: the root loader sets it (PUBLIC_URL, else the request's origin). */
export function siteOrigin(root: RootData | undefined): string {
  return (root?.config.publicUrl ?? '').replace(/\/$/, '');
}

/** Canonical link plus hreflang alternates for the languages a page exists in (x-default = en). */
export function languageLinks(
  base: string,
  pathname: string,
  languages: readonly Locale[] = LOCALES,
): MetaDescriptor[] {
  const { rest } = splitLocalePath(pathname);
  const links: MetaDescriptor[] = [{ tagName: 'link', rel: 'canonical', href: base + pathname }];
  for (const l of languages) {
    links.push({
      tagName: 'link',
      rel: 'alternate',
      hrefLang: LOCALE_TAGS[l],
      href: base + localizePath(rest, l),
    });
  }
  if (languages.includes('en')) {
    links.push({
      tagName: 'link',
      rel: 'alternate',
      hrefLang: 'x-default',
      href: base + localizePath(rest, 'en'),
    });
  }
  return links;
}
