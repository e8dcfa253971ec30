import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { isbot } from 'isbot';
import { LOCALE_COOKIE } from '../../common/locales';
import type { AppEnv } from './app-env';
import { acceptsGzip, gzipPage, plainPage, splicePage, type SplicedPage } from './gzip-splice';
import { sessionToken } from './cookies';
import { isDocumentPath } from './locale-middleware';

// Rendered public pages for anonymous visitors, kept in memory (decision 0015).
// A visitor without a session gets the same HTML for the same address, language and build, so
// the second visitor is answered without rendering. Only a clean answer is kept: 200, HTML, no
// Set-Cookie, nothing private. The whole cache is dropped when the tool pages or the route rules
// change (their in-memory copies keep their identity until then), and an entry lives at most
// `ttlMs` for what else a public page shows (plans and prices). The page is compressed once, when
// kept; each answer splices its own CSP nonce into the stored gzip (gzip-splice.ts).

export interface PageCacheOptions {
  buildId: string;
  /** What public pages are made of; a change of any element's identity empties the cache. */
  contentVersion: () => Promise<readonly unknown[]>;
  maxBytes?: number;
  maxEntries?: number;
  ttlMs?: number;
  now?: () => number;
}

interface Entry {
  status: number;
  headers: [string, string][];
  /** The page cut at its nonce attributes; each answer gets its own nonce (decision 0016). */
  page: SplicedPage;
  bytes: number;
  at: number;
}

export const PAGE_CACHE_HEADER = 'X-Page-Cache';
/** Never kept: recomputed for every answer (the policy carries that answer's nonce). */
const UNSHARED_HEADERS = new Set(['content-length', 'content-security-policy', 'content-encoding', 'vary']);

export function createPageCache(opts: PageCacheOptions) {
  const maxBytes = opts.maxBytes ?? 8 * 1024 * 1024;
  const maxEntries = opts.maxEntries ?? 500;
  const ttlMs = opts.ttlMs ?? 5 * 60_000;
  const now = opts.now ?? Date.now;
  /** In least-recently-used order: a hit moves its entry to the end. */
  const entries = new Map<string, Entry>();
  let bytes = 0;
  let version: readonly unknown[] = [];

  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  const clear = () => {
    entries.clear();
    bytes = 0;
  };

  return {
    /** Empties the cache when what pages are made of has changed since the last call. */
    async checkVersion() {
      const current = await opts.contentVersion();
      if (current.length !== version.length || current.some((v, i) => v !== version[i])) {
        clear();
        version = current;
      }
    },
    get(key: string): Entry | null {
      const entry = entries.get(key);
      if (!entry) return null;
      entries.delete(key);
      if (now() - entry.at > ttlMs) {
        bytes -= entry.bytes;
        return null;
      }
      entries.set(key, entry);
      return entry;
    },
    /** Keeps a rendered page (with the nonce it was rendered with); returns the entry, or null when too large. */
    set(key: string, status: number, headers: Headers, html: string, nonce: string): Entry | null {
      drop(key);
      if (html.length > maxBytes / 2) return null;
      const page = splicePage(html, nonce);
      const size = page.bytes + 512;
      if (size > maxBytes / 2) return null;
      const kept = [...headers].filter(([name]) => !UNSHARED_HEADERS.has(name));
      const entry = { status, headers: kept, page, bytes: size, at: now() };
      entries.set(key, entry);
      bytes += size;
      for (const oldest of entries.keys()) {
        if (bytes <= maxBytes && entries.size <= maxEntries) break;
        drop(oldest);
      }
      return entry;
    },
    stats: () => ({ entries: entries.size, bytes }),
    clear,
  };
}

export type PageCache = ReturnType<typeof createPageCache>;

/** The key of a page request, or null when its answer may not be shared between visitors. */
export function pageCacheKey(c: Context, buildId: string): string | null {
  const method = c.req.method;
  if (method !== 'GET' && method !== 'HEAD') return null;
  if (sessionToken(c)) return null;
  const url = new URL(c.req.url);
  if (!isDocumentPath(url.pathname)) return null;
  // Bots get the fully rendered document at once, people a streamed one: kept apart.
  const bot = isbot(c.req.header('user-agent') ?? '') ? 'bot' : 'web';
  const lang = getCookie(c, LOCALE_COOKIE) ?? '';
  return `${buildId}\n${bot}\n${lang}\n${url.pathname}${url.search}`;
}

/** Answers from the cache, or renders (next) and keeps a shareable answer. */
export function pageCacheMiddleware(cache: PageCache, buildId: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = pageCacheKey(c, buildId);
    if (!key) return next();
    await cache.checkVersion();
    const hit = cache.get(key);
    if (hit) return answer(c, hit, 'hit');
    await next();
    const res = c.res;
    const type = res.headers.get('content-type') ?? '';
    const control = res.headers.get('cache-control') ?? '';
    if (
      c.req.method !== 'GET' ||
      res.status !== 200 ||
      !type.startsWith('text/html') ||
      res.headers.has('set-cookie') ||
      /private|no-store/.test(control)
    )
      return;
    // Read whole (the first visitor's answer is not streamed), kept, and sent as kept.
    const html = await res.text();
    const entry = cache.set(key, res.status, res.headers, html, c.get('cspNonce') ?? '');
    if (entry) {
      c.res = undefined;
      c.res = answer(c, entry, 'miss');
      return;
    }
    c.res = new Response(html, { status: res.status, headers: res.headers });
    c.res.headers.delete('content-length');
  };
}

/** A kept page with this answer's nonce: the stored gzip when the client takes it, else plain. */
function answer(c: Context<AppEnv>, entry: Entry, state: 'hit' | 'miss'): Response {
  const nonce = c.get('cspNonce') ?? '';
  const gzip = acceptsGzip(c.req.header('accept-encoding'));
  const body = gzip ? gzipPage(entry.page, nonce) : plainPage(entry.page, nonce);
  const res = new Response(c.req.method === 'HEAD' ? null : new Uint8Array(body), {
    status: entry.status,
    headers: entry.headers,
  });
  res.headers.set('Content-Length', String(body.length));
  res.headers.set('Vary', 'Accept-Encoding');
  if (gzip) res.headers.set('Content-Encoding', 'gzip');
  res.headers.set(PAGE_CACHE_HEADER, state);
  return res;
}
