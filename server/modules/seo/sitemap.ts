import { LOCALES, LOCALE_TAGS, localizePath, type Locale } from '../../../common/locales';
import type { ToolCatalogue } from './pages';

/** Public, indexable pages besides /tools (noindex pages such as the policy backup stay out). */
export const PUBLIC_PAGES = ['/', '/pricing', '/terms', '/privacy-policy', '/affiliation'];

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function entry(origin: string, path: string, lang: Locale, languages: readonly Locale[]): string {
  const links = languages.map(
    (l) =>
      `    <xhtml:link rel="alternate" hreflang="${LOCALE_TAGS[l]}" href="${escape(origin + localizePath(path, l))}"/>`,
  );
  if (languages.includes('en')) {
    links.push(
      `    <xhtml:link rel="alternate" hreflang="x-default" href="${escape(origin + localizePath(path, 'en'))}"/>`,
    );
  }
  return `  <url>\n    <loc>${escape(origin + localizePath(path, lang))}</loc>\n${links.join('\n')}\n  </url>`;
}

/** sitemap.xml: every public page in every language, each with its hreflang alternates. */
export function buildSitemap(origin: string, tools: ToolCatalogue): string {
  const urls: string[] = [];
  for (const path of PUBLIC_PAGES) for (const lang of LOCALES) urls.push(entry(origin, path, lang, LOCALES));
  for (const { slug, languages } of tools.all()) {
    for (const lang of languages) urls.push(entry(origin, `/tools/${slug}`, lang, languages));
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** Private areas and APIs stay out of search engines; prefixed copies included. */
export function buildRobots(origin: string): string {
  const privatePaths = [
    '/dashboard',
    '/transcript',
    '/profile',
    '/affiliate',
    '/pay-success',
    '/tools/components',
  ];
  const lines = ['User-agent: *', 'Allow: /'];
  for (const lang of LOCALES) for (const p of privatePaths) lines.push(`Disallow: ${localizePath(p, lang)}`);
  lines.push('Disallow: /common-api/', 'Disallow: /self-api/', '', `Sitemap: ${origin}/sitemap.xml`, '');
  return lines.join('\n');
}
