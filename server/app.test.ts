import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './test/harness';
import type { ServerContext } from '../common/app-context';

let h: Awaited<ReturnType<typeof testApp>>;
const seen: ServerContext[] = [];

beforeAll(async () => {
  h = await testApp(
    {
      ssr: async (request, context) => {
        seen.push(context);
        // A page whose loader built a bad location: the server must still keep it on this origin.
        const wanted = new URL(request.url).searchParams.get('bounce');
        if (wanted) return new Response(null, { status: 302, headers: { location: wanted } });
        return new Response(`page ${new URL(request.url).pathname}`, {
          headers: { 'content-type': 'text/html' },
        });
      },
    },
    { BODY_LIMIT_BYTES: '1024' },
  );
});
afterAll(() => h.close());

const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' };

describe('server shell', () => {
  it('answers /healthz after checking the database', async () => {
    const res = await h.app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', build: 'test-build' });
    expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/);
  });

  it('keeps a sane incoming request id', async () => {
    const res = await h.app.request('/healthz', { headers: { 'x-request-id': 'abc-12345678' } });
    expect(res.headers.get('x-request-id')).toBe('abc-12345678');
  });

  it('serves the build id uncached', async () => {
    const res = await h.app.request('/builds/latest.json?timestamp=5');
    expect(await res.json()).toEqual({ id: 'test-build', timestamp: 1 });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers unknown API paths with the envelope', async () => {
    for (const path of ['/common-api/v1/nope', '/self-api/v1/nope', '/common-api/v2/user']) {
      const res = await h.app.request(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 404, message_key: 'errors.api.notFound', data: null });
    }
  });

  it('refuses anonymous user calls with 401 and the envelope', async () => {
    const res = await h.app.request('/common-api/v1/user');
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe(401);
    const bearer = await h.app.request('/common-api/v1/user', {
      headers: { authorization: 'Bearer forged' },
    });
    expect(bearer.status).toBe(401);
  });

  it('limits API body size with a 413 envelope', async () => {
    const res = await h.app.request('/common-api/v1/user', {
      method: 'PUT',
      body: 'x'.repeat(5000),
      headers: { 'content-type': 'application/json', 'content-length': '5000' },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 413, message_key: 'errors.api.tooLarge' });
  });

  it('hands pages to the SSR handler with a context that reads the login state', async () => {
    const res = await h.app.request('/pricing', { headers: { ...BROWSER, cookie: 'i18n_redirected=en' } });
    expect(await res.text()).toBe('page /pricing');
    const ctx = seen.at(-1)!;
    expect(ctx.config.buildId).toBe('test-build');
    expect(await ctx.getViewer()).toBeNull();
  });

  it('redirects documents by locale and writes the referral cookie once', async () => {
    const res = await h.app.request('/pricing?ref=abc123', {
      headers: { ...BROWSER, 'accept-language': 'vi' },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/vi/pricing?ref=abc123');
    const cookies = res.headers.getSetCookie();
    expect(
      cookies.some((c) => c.startsWith('clipscribe_REF_CODE=ABC123;') && c.includes('Max-Age=7776000')),
    ).toBe(true);
    expect(cookies.some((c) => c.startsWith('i18n_redirected=vi;') && c.includes('Max-Age=31536000'))).toBe(
      true,
    );
    const again = await h.app.request('/vi/pricing?ref=OTHER9', {
      headers: { ...BROWSER, cookie: 'i18n_redirected=vi; clipscribe_REF_CODE=ABC123' },
    });
    expect(again.status).toBe(200);
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it('does not redirect data, manifest or file requests', async () => {
    for (const path of ['/pricing.data', '/__manifest?paths=%2Fes', '/robots.txt']) {
      const res = await h.app.request(path, {
        headers: { ...BROWSER, 'accept-language': 'de', cookie: 'i18n_redirected=es' },
      });
      expect(res.status, path).toBe(200);
    }
  });

  it('keeps every redirect built from the request path on this origin', async () => {
    const cases: [string, Record<string, string>][] = [
      ['/en//evil.example/login', {}],
      ['/en///evil.example/login', {}],
      ['/de//evil.example/login', { cookie: 'i18n_redirected=en' }],
      ['//evil.example/login', { 'accept-language': 'de' }],
    ];
    for (const [path, headers] of cases) {
      const res = await h.app.request(`http://localhost${path}`, { headers: { ...BROWSER, ...headers } });
      const location = res.headers.get('location') ?? '';
      expect(res.status, path).toBeGreaterThanOrEqual(300);
      expect(new URL(location, 'http://localhost').origin, `${path} → ${location}`).toBe('http://localhost');
    }
    const en = await h.app.request('http://localhost/en//evil.example/login', { headers: BROWSER });
    expect(en.headers.get('location')).toBe('/evil.example/login');
  });

  it('rewrites a protocol-relative Location from any handler to the same path on this origin', async () => {
    for (const bad of ['//evil.example/x?from=//y', '/\\evil.example/x', '\\\\evil.example']) {
      const res = await h.app.request(`/pricing?bounce=${encodeURIComponent(bad)}`, {
        headers: { ...BROWSER, cookie: 'i18n_redirected=en' },
      });
      expect(res.status).toBe(302);
      const location = res.headers.get('location')!;
      expect(new URL(location, 'http://localhost').origin, location).toBe('http://localhost');
    }
    const res = await h.app.request(`/pricing?bounce=${encodeURIComponent('//evil.example/x?from=//y')}`, {
      headers: { ...BROWSER, cookie: 'i18n_redirected=en' },
    });
    expect(res.headers.get('location')).toBe('/evil.example/x?from=//y');
    const external = await h.app.request(
      `/pricing?bounce=${encodeURIComponent('https://stripe.example/pay')}`,
      {
        headers: { ...BROWSER, cookie: 'i18n_redirected=en' },
      },
    );
    expect(external.headers.get('location')).toBe('https://stripe.example/pay');
  });
});
