import type { MiddlewareHandler } from 'hono';
import { isbot } from 'isbot';
import { referralCookieFor } from '../../common/cookies';
import type { RouteRule } from '../db/schema';
import { decidePageFor } from './page-redirect';

/** React Router's data and manifest fetches, and files (robots.txt, sitemap.xml …) are not pages. */
export function isDocumentPath(pathname: string): boolean {
  if (pathname.endsWith('.data') || pathname.endsWith('/__manifest')) return false;
  return !/\.[a-z0-9]{1,5}$/i.test(pathname);
}

/**
 * Document requests only (not .data fetches, API or assets): route rules and the locale
 * redirect (decidePage, which the `:lang?` loader also runs on client navigations), and the
 * referral cookie (docs/product.md#referrals; written only when none is set: first click wins). A route rule
 * also applies to a path that looks like a file (an old /page.html).
 */
export function pageRequestMiddleware(rules: {
  lookup(pathname: string): Promise<RouteRule | null>;
}): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const url = new URL(c.req.url);
    if (url.pathname.endsWith('.data') || url.pathname.endsWith('/__manifest')) return next();
    if (!isDocumentPath(url.pathname)) {
      const rule = await rules.lookup(url.pathname);
      if (!rule) return next();
      return c.redirect(
        rule.target.startsWith('/') ? rule.target + url.search : rule.target,
        rule.status === 302 ? 302 : 301,
      );
    }

    const cookies: string[] = [];
    const referral = referralCookieFor(
      url.search,
      c.req.header('cookie'),
      isbot(c.req.header('user-agent') ?? ''),
    );
    if (referral) cookies.push(referral);
    const decision = await decidePageFor(c, rules, url);
    cookies.push(...decision.cookies);
    if (decision.redirect) {
      const res = c.redirect(decision.redirect.location, decision.redirect.status);
      res.headers.set('Vary', 'Cookie, Accept-Language');
      for (const cookie of cookies) res.headers.append('Set-Cookie', cookie);
      return res;
    }
    await next();
    if (cookies.length) {
      // Re-wrap so the headers are mutable, then add ours beside any the page set.
      c.res = new Response(c.res.body, c.res);
      for (const cookie of cookies) c.res.headers.append('Set-Cookie', cookie);
    }
  };
}
