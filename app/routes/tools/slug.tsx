import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/slug';
import { notFound } from '../../lib/not-found';
import { languageLinks, rootDataFrom, siteOrigin } from '../../lib/meta';
import { useLocalePath } from '../../lib/use-locale';
import { LOCALE_TAGS, localeParam, localizePath } from '../../../common/locales';
import { TOOL_SLUG_RE, type ToolPageJson } from '../../../common/tool-content';
import {
  FaqBlock,
  FeaturesBlock,
  HeroBlock,
  MoreToolsBlock,
  StepsBlock,
} from '../../components/tools/blocks';

// /tools/{slug}: server-rendered from the seo-landing content in the page's language; a path
// without a page in that language is a 404 'Page not found: {path}'.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const lang = localeParam(params.lang);
  const slug = (params['*'] ?? '').replace(/\/+$/, '').toLowerCase();
  const page = TOOL_SLUG_RE.test(slug) ? await context.getToolPage(lang, slug) : null;
  if (!page) throw notFound('tool', url.pathname);
  return { page };
}

export function headers() {
  return { 'Cache-Control': 'public, max-age=300' };
}

/** SoftwareApplication, FAQPage and BreadcrumbList, as search engines read them. */
function structuredData(page: ToolPageJson, url: string, origin: string, app: string) {
  return [
    {
      '@context': 'https://schema.org',
      '@type': 'SoftwareApplication',
      name: `${app} — ${page.nav}`,
      description: page.description,
      url,
      applicationCategory: 'MultimediaApplication',
      operatingSystem: 'Web',
      inLanguage: LOCALE_TAGS[page.lang],
      offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD' },
    },
    {
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: page.faq.map((f) => ({
        '@type': 'Question',
        name: f.q,
        acceptedAnswer: { '@type': 'Answer', text: f.a },
      })),
    },
    {
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: app, item: origin + localizePath('/', page.lang) },
        { '@type': 'ListItem', position: 2, name: page.nav, item: url },
      ],
    },
  ];
}

export const meta: Route.MetaFunction = ({ loaderData, matches, location }) => {
  const root = rootDataFrom(matches);
  const app = root?.config.appName ?? 'ClipScribe';
  if (!loaderData) return [{ title: app }, { name: 'robots', content: 'noindex' }];
  const { page } = loaderData;
  const origin = siteOrigin(root);
  const url = origin + location.pathname;
  return [
    { title: page.title },
    { name: 'description', content: page.description },
    ...languageLinks(origin, location.pathname, page.languages),
    { property: 'og:type', content: 'website' },
    { property: 'og:title', content: page.title },
    { property: 'og:description', content: page.description },
    { property: 'og:url', content: url },
    { property: 'og:site_name', content: app },
    { property: 'og:locale', content: LOCALE_TAGS[page.lang].replace('-', '_') },
    { name: 'twitter:card', content: 'summary' },
    ...structuredData(page, url, origin, app).map((data) => ({ 'script:ld+json': data })),
  ];
};

export default function ToolPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const { page } = loaderData;
  return (
    <>
      <nav
        aria-label={t('tools.breadcrumb')}
        className="mx-auto max-w-6xl px-4 pt-4 text-sm text-slate-500 sm:px-6"
      >
        <ol className="flex flex-wrap gap-1.5">
          <li>
            <Link to={lp('/')} className="hover:text-slate-800">
              {t('nav.home')}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="text-slate-700">
            {page.nav}
          </li>
        </ol>
      </nav>
      <HeroBlock page={page} />
      <StepsBlock page={page} />
      <FeaturesBlock page={page} />
      <FaqBlock page={page} />
      <MoreToolsBlock page={page} />
    </>
  );
}
