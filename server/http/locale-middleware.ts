import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { serialize } from 'hono/utils/cookie';
import { isbot } from 'isbot';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE } from '../../common/locales';
import { decideLocale } from '../../common/locale-redirect';
import { REF_COOKIE, REF_COOKIE_MAX_AGE, normalizeRefCode } from '../../common/cookies';

/** React Router's data and manifest fetches, and files (robots.txt, sitemap.xml …) are not pages. */
export function isDocumentPath(pathname: string): boolean {
  if (pathname.endsWith('.data') || pathname.endsWith('/__manifest')) return false;
  return !/\.[a-z0-9]{1,5}$/i.test(pathname);
}

/**
 * Document requests only (not .data fetches, API or assets): the locale redirect of spec §4
 * and the referral cookie of spec §2 (written only when none is set: first click wins).
 */
export function pageRequestMiddleware(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const url = new URL(c.req.url);
    if (!isDocumentPath(url.pathname)) return next();
    const bot = isbot(c.req.header('user-agent') ?? '');

    const cookies: string[] = [];
    const ref = normalizeRefCode(url.searchParams.get('ref'));
    if (ref && !bot && !getCookie(c, REF_COOKIE)) {
      cookies.push(serialize(REF_COOKIE, ref, { path: '/', maxAge: REF_COOKIE_MAX_AGE, sameSite: 'Lax' }));
    }

    const decision = decideLocale({
      pathname: url.pathname,
      search: url.search,
      cookie: getCookie(c, LOCALE_COOKIE) ?? null,
      acceptLanguage: c.req.header('accept-language') ?? null,
      isBot: bot,
    });
    if (decision.remember) {
      cookies.push(
        serialize(LOCALE_COOKIE, decision.remember, {
          path: '/',
          maxAge: LOCALE_COOKIE_MAX_AGE,
          sameSite: 'Lax',
        }),
      );
    }
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
