import { matchRoutes, type RouteObject } from 'react-router';
import { GUEST_ONLY_PAGES, PAGES, type PageDef } from './pages';
import { localizePath, splitLocalePath } from './locales';

function toRouteObjects(pages: PageDef[]): RouteObject[] {
  return pages.map((p) =>
    p.path === ''
      ? { id: p.name, index: true }
      : { id: p.name, path: p.path, children: p.children ? toRouteObjects(p.children) : undefined },
  );
}

const ROUTE_OBJECTS = toRouteObjects(PAGES);
const PAGE_BY_NAME = new Map<string, PageDef>();
(function index(pages: PageDef[]) {
  for (const p of pages) {
    PAGE_BY_NAME.set(p.name, p);
    if (p.children) index(p.children);
  }
})(PAGES);

// matchRoutes flattens and ranks the whole route table on every call; the guard asks on every
// page request (a CPU profile of the signed-in dashboard put it at ~2 % of the busy time).
const RESOLVED = new Map<string, PageDef | null>();
const RESOLVED_MAX = 1000;

/** The deepest page that an unprefixed path resolves to. */
export function pageForPath(rest: string): PageDef | null {
  const known = RESOLVED.get(rest);
  if (known !== undefined) return known;
  const matches = matchRoutes(ROUTE_OBJECTS, rest);
  const last = matches?.[matches.length - 1];
  const page = last ? (PAGE_BY_NAME.get(last.route.id ?? '') ?? null) : null;
  // Paths come from visitors: the memo stays small, oldest out first.
  if (RESOLVED.size >= RESOLVED_MAX) RESOLVED.delete(RESOLVED.keys().next().value!);
  RESOLVED.set(rest, page);
  return page;
}

/**
 * Repeated slashes and backslashes become one slash. Browsers read a Location of `//host/…`
 * or `/\\host/…` as another site, so every redirect built from a request's path goes through
 * this first (an empty path segment never names a page here).
 */
export function collapseSlashes(pathname: string): string {
  return pathname.replace(/[/\\]+/g, '/');
}

/** True for a Location a browser would take to another host without a scheme (`//x`, `/\\x`, `\\x`). */
export function isProtocolRelative(location: string): boolean {
  return /^\s*[/\\]{2}/.test(location.replace(/[\t\n\r]/g, ''));
}

/**
 * Accepts `from` only when it is a path on this site: one leading slash, no scheme,
 * no protocol-relative `//host`, no backslash tricks, no control characters.
 */
export function safeFromPath(from: string | null | undefined): string | null {
  if (typeof from !== 'string' || from.length === 0 || from.length > 2048) return null;
  if (!from.startsWith('/')) return null;
  if (from.startsWith('//') || from.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(from)) return null;
  try {
    const url = new URL(from, 'http://site.invalid');
    if (url.origin !== 'http://site.invalid') return null;
    // '/.//evil.example' resolves to the path '//evil.example': collapse what resolving left.
    return collapseSlashes(url.pathname) + url.search + url.hash;
  } catch {
    return null;
  }
}

/** Login URL that brings the user back to `fullPath` afterwards (docs/product.md#pages). */
export function loginRedirect(fullPath: string): string {
  const { lang } = splitLocalePath(fullPath.split('?')[0] ?? '/');
  return `${localizePath('/login', lang)}?from=${encodeURIComponent(fullPath)}`;
}

/**
 * The login guard (docs/product.md#pages): anonymous on an auth page → /login?from=…; logged in on a
 * guest-only page → /dashboard. Returns the redirect target or null to let the page render.
 */
export function guardRedirect(pathname: string, search: string, loggedIn: boolean): string | null {
  const { lang, rest } = splitLocalePath(pathname);
  const page = pageForPath(rest);
  if (!page) return null;
  if (page.auth && !loggedIn) return loginRedirect(pathname + search);
  if (loggedIn && GUEST_ONLY_PAGES.has(page.name)) return localizePath('/dashboard', lang);
  return null;
}
