import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../common/cookies';
import { LOCALE_COOKIE } from '../../common/locales';
import type { AppEnv } from './app-env';
import { createPageCache, PAGE_CACHE_HEADER, pageCacheMiddleware } from './page-cache';

function setup(opts: { ttlMs?: number; maxBytes?: number } = {}) {
  let clock = 0;
  let version: unknown[] = [{}, {}];
  const renders: string[] = [];
  const cache = createPageCache({
    buildId: 'b1',
    contentVersion: async () => version,
    now: () => clock,
    ...opts,
  });
  const app = new Hono<AppEnv>();
  let nonces = 0;
  app.use('*', async (c, next) => {
    c.set('cspNonce', `n${++nonces}`);
    await next();
  });
  app.use('*', pageCacheMiddleware(cache, 'b1'));
  app.get('*', (c) => {
    renders.push(c.req.path);
    if (c.req.path === '/cookie') c.header('Set-Cookie', 'x=1');
    if (c.req.path === '/missing') return c.html('<p>not found</p>', 404);
    if (c.req.path === '/big') return c.html(`<p>${'x'.repeat(2000)}</p>`);
    if (c.req.path === '/script')
      return c.html(`<p>nonce=&quot;n1&quot; stays text</p><script nonce="${c.get('cspNonce')}">1</script>`);
    return c.html(`<p>${c.req.path} #${renders.length}</p>`);
  });
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    app.request(path, { method, headers: { 'user-agent': 'Mozilla/5.0 Chrome/130', ...headers } });
  return {
    cache,
    renders,
    get,
    tick: (ms: number) => void (clock += ms),
    setVersion: (v: unknown[]) => void (version = v),
  };
}

describe('page cache', () => {
  it('renders a public page once for anonymous visitors and serves it again, HEAD included', async () => {
    const t = setup();
    const first = await t.get('/pricing');
    expect(first.headers.get(PAGE_CACHE_HEADER)).toBe('miss');
    const html = await first.text();
    const second = await t.get('/pricing');
    expect(second.headers.get(PAGE_CACHE_HEADER)).toBe('hit');
    expect(second.headers.get('content-type')).toContain('text/html');
    expect(await second.text()).toBe(html);
    const head = await t.get('/pricing', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(t.renders).toEqual(['/pricing']);
  });

  it("gives every answer from the cache this answer's CSP nonce, never the one it was rendered with", async () => {
    const t = setup();
    expect(await (await t.get('/script')).text()).toContain('<script nonce="n1">');
    const again = await (await t.get('/script')).text();
    expect(again).toBe('<p>nonce=&quot;n1&quot; stays text</p><script nonce="n2">1</script>');
    expect(t.renders).toEqual(['/script']);
  });

  it("sends the gzip kept with the page, with this answer's nonce, to clients that take gzip", async () => {
    const t = setup();
    const plain = await (await t.get('/script')).text();
    expect(plain).toContain('<script nonce="n1">');
    for (const [n, accept] of [
      [2, 'gzip, deflate, br'],
      [3, 'br;q=1, gzip;q=0.5'],
      [4, '*'],
    ] as const) {
      const res = await t.get('/script', { 'accept-encoding': accept });
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      const body = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(body.length);
      // gunzip checks the spliced stream's CRC-32 and length.
      expect(gunzipSync(body).toString()).toBe(plain.replace('nonce="n1"', `nonce="n${n}"`));
    }
    for (const accept of ['identity', 'gzip;q=0', 'br']) {
      const res = await t.get('/script', { 'accept-encoding': accept });
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(await res.text()).toMatch(
        /^<p>nonce=&quot;n1&quot; stays text<\/p><script nonce="n\d+">1<\/script>$/,
      );
    }
    expect(t.renders).toEqual(['/script']);
  });

  it('never shares a signed-in page, nor an answer that sets a cookie or is not a 200', async () => {
    const t = setup();
    for (let i = 0; i < 2; i++) {
      await t.get('/dashboard', { cookie: `${SESSION_COOKIE}=abc` });
      await t.get('/dashboard', { authorization: 'Bearer abc' });
      await t.get('/cookie');
      await t.get('/missing');
    }
    expect(t.renders).toHaveLength(8);
    expect(t.cache.stats().entries).toBe(0);
  });

  it('keeps languages, queries and bots apart, and leaves data requests alone', async () => {
    const t = setup();
    for (let i = 0; i < 2; i++) {
      await t.get('/');
      await t.get('/', { cookie: `${LOCALE_COOKIE}=de` });
      await t.get('/?a=1');
      await t.get('/', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
      await t.get('/tools.data');
    }
    expect(t.renders).toEqual(['/', '/', '/', '/', '/tools.data', '/tools.data']);
  });

  it('empties itself when the tool pages or route rules change, and forgets old pages', async () => {
    const t = setup({ ttlMs: 1000 });
    await t.get('/tools/a');
    await t.get('/tools/a');
    expect(t.renders).toHaveLength(1);
    t.setVersion([{}, {}]);
    await t.get('/tools/a');
    expect(t.renders).toHaveLength(2);
    t.tick(1001);
    await t.get('/tools/a');
    expect(t.renders).toHaveLength(3);
  });

  it('stays within its memory, dropping the least recently used page first', async () => {
    const t = setup({ maxBytes: 7_000 });
    await t.get('/big?1');
    await t.get('/big?2');
    expect((await t.get('/big?1')).headers.get(PAGE_CACHE_HEADER)).toBe('hit');
    await t.get('/big?3');
    expect(t.cache.stats()).toMatchObject({ entries: 2 });
    expect(t.cache.stats().bytes).toBeLessThanOrEqual(7_000);
    expect((await t.get('/big?1')).headers.get(PAGE_CACHE_HEADER)).toBe('hit');
    expect((await t.get('/big?2')).headers.get(PAGE_CACHE_HEADER)).toBe('miss');
    expect(t.renders).toHaveLength(4);
  });
});
