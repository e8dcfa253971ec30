import type { MiddlewareHandler } from 'hono';
import { collapseSlashes, isProtocolRelative } from '../../common/guard';
import type { AppVariables } from './request-log';

/**
 * Last line behind every redirect the server answers (Hono handlers, the locale middleware,
 * route loaders): a Location of `//host/…` or `/\host/…` — a path that would leave this origin —
 * becomes the same path on this origin. Absolute http(s) addresses (route rules to other sites,
 * Stripe, Google) are deliberate and pass untouched.
 */
export function sameOriginRedirects(): MiddlewareHandler<{ Variables: AppVariables }> {
  return async (c, next) => {
    await next();
    const location = c.res.headers.get('location');
    if (!location || !isProtocolRelative(location)) return;
    c.get('log')?.warn({ location }, 'protocol-relative redirect rewritten to this origin');
    const clean = location.replace(/[\t\n\r]/g, '').trim();
    const cut = clean.search(/[?#]/);
    const safe = cut < 0 ? collapseSlashes(clean) : collapseSlashes(clean.slice(0, cut)) + clean.slice(cut);
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set('location', safe);
  };
}
