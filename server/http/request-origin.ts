import { networkInterfaces } from 'node:os';
import type { Context } from 'hono';

/** http: or https: as the visitor sees it; behind a trusted proxy, from X-Forwarded-Proto. */
export function requestProtocol(c: Context, trustProxy: boolean): 'http:' | 'https:' {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    if (forwarded === 'https' || forwarded === 'http') return `${forwarded}:`;
  }
  return new URL(c.req.url).protocol === 'https:' ? 'https:' : 'http:';
}

/**
 * The visitor is on https: the request came over TLS (or a trusted proxy says so), or the site's
 * public address is https. Session cookies get Secure and answers HSTS then.
 */
export function isSecureRequest(c: Context, opts: { trustProxy: boolean; publicUrl?: string }): boolean {
  return requestProtocol(c, opts.trustProxy) === 'https:' || !!opts.publicUrl?.startsWith('https:');
}

let ownHosts: Set<string> | null = null;

/** Names this machine answers to without configuration: loopback and its interface addresses. */
function isOwnHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1') {
    return true;
  }
  ownHosts ??= new Set(
    Object.values(networkInterfaces())
      .flat()
      .map((i) => i?.address.toLowerCase())
      .filter((a): a is string => !!a),
  );
  return ownHosts.has(host);
}

/**
 * The origin that links in mails and return addresses are built on. PUBLIC_URL when set.
 * Without it the Host header is the only clue, and anyone can send any Host: a forged one
 * would put another site's address (with a reset token) into someone else's mailbox. So the
 * request's host is used only when it is one this machine answers to (a fresh `npm start` on
 * localhost or a LAN address); any other name gets localhost, and the log asks for PUBLIC_URL.
 */
export function linkOrigin(
  c: Context,
  opts: { trustProxy: boolean; publicUrl?: string },
  onUntrusted?: (host: string) => void,
): string {
  if (opts.publicUrl) return new URL(opts.publicUrl).origin;
  const url = new URL(c.req.url);
  const protocol = requestProtocol(c, opts.trustProxy);
  if (isOwnHost(url.hostname)) return `${protocol}//${url.host}`;
  onUntrusted?.(url.host);
  return `${protocol}//localhost${url.port ? `:${url.port}` : ''}`;
}
