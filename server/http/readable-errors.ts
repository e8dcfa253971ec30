import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import {
  DEFAULT_LOCALE,
  LOCALE_COOKIE,
  PAGE_LANG_HEADER,
  LOCALE_TAGS,
  isLocale,
  localeFromAcceptLanguage,
  type Locale,
} from '../../common/locales';
import { errorText, isMessageKey } from '../modules/messages/error-text';
import type { AppEnv } from './app-env';

/**
 * The language an error answer is written in: the page the call comes from (the app's client
 * names it; else the remembered interface language), then the request's Accept-Language, then
 * the signed-in caller's account language (an API key's owner), then English.
 */
export function errorLanguage(c: Context<AppEnv>): Locale {
  const page = c.req.header(PAGE_LANG_HEADER);
  if (isLocale(page)) return page;
  const cookie = getCookie(c, LOCALE_COOKIE);
  if (isLocale(cookie)) return cookie;
  const accepted = localeFromAcceptLanguage(c.req.header('accept-language'));
  if (accepted) return accepted;
  const own = c.get('callerLanguage');
  return isLocale(own) ? own : DEFAULT_LOCALE;
}

interface ErrorBody {
  code: number;
  message: string;
  message_key?: string;
  data?: unknown;
}

function isKeyedError(body: unknown): body is ErrorBody {
  if (!body || typeof body !== 'object') return false;
  const b = body as Partial<ErrorBody>;
  return typeof b.code === 'number' && b.code !== 200 && typeof b.message === 'string';
}

/**
 * Field errors (`data.fields`, a field → message key map) as sentences in `lang`, with the keys
 * kept as `data.field_keys`: the same pair as `message` and `message_key`. Free text stays.
 */
async function readableFields(lang: Locale, data: unknown): Promise<unknown> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data;
  const { fields } = data as { fields?: unknown };
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return data;
  const keys: Record<string, string> = {};
  const sentences: Record<string, string> = {};
  for (const [field, value] of Object.entries(fields as Record<string, unknown>)) {
    if (typeof value !== 'string') continue;
    keys[field] = value;
    sentences[field] = isMessageKey(value) ? await errorText(lang, value, null) : value;
  }
  return { ...data, fields: sentences, field_keys: keys };
}

/**
 * Every error envelope leaves with `message` as a readable sentence in the caller's language and
 * `message_key` as the stable key (docs/product.md#the-api). One place, after whatever produced
 * the answer (a module's ApiError, a handler, tus, the body limit).
 */
export function readableErrors(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.status < 400 || !res.headers.get('content-type')?.includes('application/json')) return;
    let body: unknown;
    try {
      body = await res.clone().json();
    } catch {
      return;
    }
    if (!isKeyedError(body)) return;
    const key = body.message_key ?? body.message;
    if (!isMessageKey(key)) return;
    const lang = errorLanguage(c);
    const message = await errorText(lang, key, body.data ?? null);
    const { code } = body;
    const data = await readableFields(lang, body.data ?? null);
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.set('Content-Language', LOCALE_TAGS[lang]);
    c.res = undefined;
    c.res = new Response(JSON.stringify({ code, message, message_key: key, data }), {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  };
}
