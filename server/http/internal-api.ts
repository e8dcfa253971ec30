import type { Context, Hono } from 'hono';
import type { AppEnv } from './app-env';
import type { ApiAnswer } from '../../common/app-context';

// The request headers an API call needs to act for the same visitor: session, language, the
// page's origin (the API's CSRF check sees the browser's own Origin) and, behind a trusted
// proxy, the client address and scheme.
const FORWARDED = [
  'cookie',
  'user-agent',
  'accept-language',
  'origin',
  'referer',
  'x-forwarded-for',
  'x-forwarded-proto',
];

/**
 * Runs one of this server's own API calls on behalf of a page request (a form posted before
 * the page's scripts ran). The call goes through the whole app — origin check, rate limits,
 * validation — exactly as the browser's fetch would; its Set-Cookie headers come back so the
 * page's answer can carry them.
 */
export async function callOwnApi(
  app: Hono<AppEnv>,
  c: Context<AppEnv>,
  method: 'POST' | 'PUT',
  path: string,
  body: Record<string, unknown>,
): Promise<ApiAnswer> {
  if (!/^\/(common|self)-api\/v1\/[\w/-]+$/.test(path)) throw new Error(`not an API path: ${path}`);
  const headers = new Headers({ 'content-type': 'application/json', accept: 'application/json' });
  for (const name of FORWARDED) {
    const value = c.req.header(name);
    if (value) headers.set(name, value);
  }
  const url = new URL(path, c.req.url);
  const res = await app.fetch(new Request(url, { method, headers, body: JSON.stringify(body) }), c.env);
  const envelope = (await res.json()) as ApiAnswer['envelope'];
  return { status: res.status, envelope, setCookies: res.headers.getSetCookie() };
}
