import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { getCookie } from 'hono/cookie';
import {
  LOCALE_COOKIE,
  PAGE_LANG_HEADER,
  isLocale,
  localeFromAcceptLanguage,
  splitLocalePath,
  DEFAULT_LOCALE,
} from '../../common/locales';
import type { RequestMeta } from '../modules/accounts/deps';
import type { Logger } from '../logger';
import { linkOrigin } from './request-origin';

let warnedHost = false;

/** A form posted from a page of this site (no script): the language in that page's path. */
function refererLang(c: Context) {
  const referer = c.req.header('referer');
  if (!referer) return null;
  try {
    const from = new URL(referer);
    if (from.host !== new URL(c.req.url).host) return null;
    const { lang, prefixed } = splitLocalePath(from.pathname);
    return prefixed ? lang : null;
  } catch {
    return null;
  }
}

/** Who is asking, from where, in which language: the facts account rules need. */
export function requestMeta(c: Context, opts: { trustProxy: boolean; publicUrl?: string }): RequestMeta {
  let ip = 'unknown';
  if (opts.trustProxy) ip = c.req.header('x-forwarded-for')?.split(',')[0]?.trim() || ip;
  if (ip === 'unknown') {
    try {
      ip = getConnInfo(c).remote.address ?? 'unknown';
    } catch {
      ip = 'local';
    }
  }
  // The page the person is on decides (signing up on /de makes a German account), then the
  // locale cookie, then the browser's languages.
  const pageLang = c.req.header(PAGE_LANG_HEADER);
  const cookieLang = getCookie(c, LOCALE_COOKIE);
  const lang = isLocale(pageLang)
    ? pageLang
    : (refererLang(c) ??
      (isLocale(cookieLang)
        ? cookieLang
        : (localeFromAcceptLanguage(c.req.header('accept-language')) ?? DEFAULT_LOCALE)));
  return {
    origin: linkOrigin(c, opts, (host) => {
      if (warnedHost) return;
      warnedHost = true;
      (c.get('log') as Logger | undefined)?.warn(
        { host },
        'PUBLIC_URL is not set: links in mails use localhost instead of this unverified Host header',
      );
    }),
    ip,
    userAgent: c.req.header('user-agent') ?? null,
    lang,
  };
}
