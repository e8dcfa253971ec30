import { getCookie } from 'hono/cookie';
import type { Context } from 'hono';
import { serialize } from 'hono/utils/cookie';
import { isbot } from 'isbot';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE } from '../../common/locales';
import { decideLocale } from '../../common/locale-redirect';
import type { RouteRule } from '../db/schema';

export interface PageRedirect {
  location: string;
  status: 301 | 302;
}

/** What a page visit decides before rendering: a redirect, and the cookies to set either way. */
export interface PageDecision {
  redirect: PageRedirect | null;
  cookies: string[];
}

interface Rules {
  lookup(pathname: string): Promise<RouteRule | null>;
}

/**
 * The one place where a visit to a page is redirected (docs/product.md#pages, #languages): first the route rules by
 * path, then the language (/en/… to the unprefixed path, the remembered or browser language).
 * Used for document requests (locale-middleware.ts) and, through context.pageRedirect, by the
 * `:lang?` route's loader on client-side navigations, so both behave the same.
 */
export async function decidePage(
  rules: Rules,
  visit: {
    pathname: string;
    search: string;
    localeCookie: string | null;
    acceptLanguage: string | null;
    userAgent: string | null;
  },
): Promise<PageDecision> {
  const rule = await rules.lookup(visit.pathname);
  if (rule) {
    const location = rule.target.startsWith('/') ? rule.target + visit.search : rule.target;
    return { redirect: { location, status: rule.status === 302 ? 302 : 301 }, cookies: [] };
  }
  const decision = decideLocale({
    pathname: visit.pathname,
    search: visit.search,
    cookie: visit.localeCookie,
    acceptLanguage: visit.acceptLanguage,
    isBot: isbot(visit.userAgent ?? ''),
  });
  const cookies = decision.remember
    ? [
        serialize(LOCALE_COOKIE, decision.remember, {
          path: '/',
          maxAge: LOCALE_COOKIE_MAX_AGE,
          sameSite: 'Lax',
        }),
      ]
    : [];
  return { redirect: decision.redirect ?? null, cookies };
}

/** decidePage for the page at `url` (the address a navigation asks for), as this visitor. */
export function decidePageFor(c: Context, rules: Rules, url: URL): Promise<PageDecision> {
  return decidePage(rules, {
    pathname: url.pathname,
    search: url.search,
    localeCookie: getCookie(c, LOCALE_COOKIE) ?? null,
    acceptLanguage: c.req.header('accept-language') ?? null,
    userAgent: c.req.header('user-agent') ?? null,
  });
}
