import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { addRouteRule } from '../modules/seo/route-rules';

// Route rules and the locale redirect decide client navigations too. React
// Router's data request for /terms is /terms.data; its loader asks context.pageRedirect.
let h: Awaited<ReturnType<typeof testApp>>;
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' };
const GOOGLEBOT = {
  'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

beforeAll(async () => {
  h = await testApp({
    // Stands in for the `:lang?` loader: answers what it would redirect to.
    ssr: async (request, context) => {
      const url = new URL(request.url);
      const page = url.pathname.replace(/\.data$/, '') + url.search;
      return Response.json(await context.pageRedirect(page));
    },
  });
  await addRouteRule(h.db, { path: '/old-internal', target: '/pricing', status: 301 });
  await addRouteRule(h.db, { path: '/old-away', target: 'https://example.org/x', status: 302 });
});
afterAll(() => h.close());

async function navigate(path: string, headers: Record<string, string>) {
  const res = await h.app.request(path, { headers: { ...BROWSER, ...headers } });
  return (await res.json()) as { location: string; status: number; cookies: string[] } | null;
}

describe('client navigations follow the same redirects as page loads', () => {
  it('applies route rules, keeping the query', async () => {
    expect(await navigate('/old-internal.data?a=1', {})).toMatchObject({
      location: '/pricing?a=1',
      status: 301,
    });
    expect(await navigate('/old-away.data', {})).toMatchObject({
      location: 'https://example.org/x',
      status: 302,
    });
    // A document request gets the same answer from the middleware.
    const doc = await h.app.request('/old-internal?a=1', { headers: BROWSER, redirect: 'manual' });
    expect(doc.status).toBe(301);
    expect(doc.headers.get('location')).toBe('/pricing?a=1');
  });

  it('moves to the remembered language, or the browser language on a first visit', async () => {
    expect(await navigate('/terms.data', { cookie: 'i18n_redirected=de' })).toMatchObject({
      location: '/de/terms',
      status: 302,
    });
    const first = await navigate('/terms.data', { 'accept-language': 'fr-FR,fr;q=0.9' });
    expect(first).toMatchObject({ location: '/fr/terms', status: 302 });
    expect(first!.cookies.join()).toMatch(/i18n_redirected=fr/);
    expect(await navigate('/en/terms.data?x=1', {})).toMatchObject({ location: '/terms?x=1', status: 301 });
  });

  it('stays where it is when the language matches, and never moves crawlers', async () => {
    expect(await navigate('/de/terms.data', { cookie: 'i18n_redirected=de' })).toBeNull();
    expect(await navigate('/terms.data', { cookie: 'i18n_redirected=en' })).toBeNull();
    expect(await navigate('/terms.data', { ...GOOGLEBOT, cookie: 'i18n_redirected=de' })).toBeNull();
  });

  it('keeps every location on this origin', async () => {
    const moved = await navigate('/en//evil.example/x.data', { cookie: 'i18n_redirected=de' });
    expect(moved?.location.startsWith('//')).toBe(false);
  });
});
