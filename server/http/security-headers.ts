import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env';
import { contentSecurityPolicy, createNonce, type CspSources } from './csp';
import { isSecureRequest } from './request-origin';

/**
 * Headers every answer carries (decision 0016): a nonce-based Content-Security-Policy on
 * pages (the nonce is made here, before the page renders, and read by the renderer through
 * c.get('cspNonce')), no framing anywhere, a referrer that never carries paths to other sites,
 * and HSTS once the visitor reached us over https (directly, or per X-Forwarded-Proto from a
 * trusted proxy). An answer that set its own policy (media: sandbox) keeps it.
 */
export function securityHeaders(opts: {
  sources: CspSources;
  trustProxy: boolean;
  publicUrl?: string;
  /** Vite's development server injects its own inline scripts: no page policy there. */
  pagePolicy: boolean;
}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const nonce = createNonce();
    c.set('cspNonce', nonce);
    await next();
    const set: [string, string][] = [
      ['Referrer-Policy', 'strict-origin-when-cross-origin'],
      ['X-Content-Type-Options', 'nosniff'],
    ];
    if (!c.res.headers.has('content-security-policy')) {
      const html = (c.res.headers.get('content-type') ?? '').startsWith('text/html');
      if (html && opts.pagePolicy) {
        set.push(['Content-Security-Policy', contentSecurityPolicy(nonce, opts.sources)]);
      } else if (!html) {
        // Nothing else we answer is meant to run or be framed as a document.
        set.push(['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"]);
      }
    }
    set.push(['X-Frame-Options', 'DENY']);
    if (isSecureRequest(c, opts)) set.push(['Strict-Transport-Security', 'max-age=31536000']);
    try {
      for (const [name, value] of set) c.res.headers.set(name, value);
    } catch {
      // A response with immutable headers (e.g. a fetch passed through): copy it once.
      c.res = new Response(c.res.body, c.res);
      for (const [name, value] of set) c.res.headers.set(name, value);
    }
  };
}
