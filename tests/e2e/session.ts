import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newContext } from './browser';
import { mailTo } from './outbox';

/** Signs up through the real API and the outbox mail; returns the session cookie header. */
export async function apiSignup(
  base: string,
  dataDir: string,
  email: string,
): Promise<Record<string, string>> {
  // A distinct client address per account (the suite's server trusts X-Forwarded-For).
  const client = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const headers = { origin: base, 'content-type': 'application/json', 'x-forwarded-for': client };
  const signup = await fetch(`${base}/common-api/v1/signup`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: 'a long secret 42' }),
  });
  if (!signup.ok) throw new Error(`signup: ${signup.status}`);
  const mail = await mailTo(dataDir, email);
  const code = /\b(\d{6})\b/.exec(mail.text ?? '')![1]!;
  const done = await fetch(`${base}/common-api/v1/complete-signup`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, code }),
  });
  const cookie = done.headers
    .getSetCookie()
    .find((c) => c.startsWith('token='))!
    .split(';')[0]!;
  return { cookie, origin: base };
}

/** A browser context whose session is `cookie` (apiSignup's), for the server at `url`. */
export async function signedInContext(
  browser: Browser,
  url: string,
  cookie: string,
  opts: Parameters<typeof newContext>[1] = {},
): Promise<BrowserContext> {
  const ctx = await newContext(browser, opts);
  const [name, value] = cookie.split('=') as [string, string];
  await ctx.addCookies([{ name, value, url, httpOnly: true }]);
  return ctx;
}

/** A new account (signed up through the API) with a page signed in as it, and its API headers. */
export async function signedInPage(
  browser: Browser,
  base: string,
  dataDir: string,
  email: string,
): Promise<{ ctx: BrowserContext; page: Page; headers: Record<string, string> }> {
  const headers = await apiSignup(base, dataDir, email);
  const ctx = await signedInContext(browser, base, headers.cookie!);
  return { ctx, page: await ctx.newPage(), headers };
}
