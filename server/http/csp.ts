import { randomBytes } from 'node:crypto';

// The page's Content-Security-Policy (decision 0016). Scripts run only from
// this origin or with this response's nonce; other hosts are allowed only for what is configured
// (the tag manager, Google sign-in, an API on another origin).

/** 128 random bits, new for every response. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export interface CspSources {
  /** GTM_ID is set: the tag manager and the analytics it loads. */
  tagManager: boolean;
  /** GOOGLE_CLIENT_ID is set: Google Identity Services. */
  googleSignIn: boolean;
  /** API_BASE_URL's origin when it is another origin than the page's. */
  apiOrigin: string | null;
}

export function contentSecurityPolicy(nonce: string, sources: CspSources): string {
  const script = ["'self'", `'nonce-${nonce}'`];
  // Tailwind's inlined sheet, React's style attributes and toasts' injected styles.
  const style = ["'self'", "'unsafe-inline'"];
  const img = ["'self'", 'data:', 'blob:'];
  const connect = ["'self'"];
  const media = ["'self'", 'blob:'];
  const form = ["'self'"];
  const frame: string[] = [];
  if (sources.apiOrigin) {
    connect.push(sources.apiOrigin);
    media.push(sources.apiOrigin);
    form.push(sources.apiOrigin);
  }
  if (sources.tagManager) {
    script.push('https://www.googletagmanager.com');
    img.push('https://www.googletagmanager.com', 'https://*.google-analytics.com');
    connect.push(
      'https://*.googletagmanager.com',
      'https://*.google-analytics.com',
      'https://*.analytics.google.com',
    );
    frame.push('https://www.googletagmanager.com');
  }
  if (sources.googleSignIn) {
    script.push('https://accounts.google.com/gsi/client');
    style.push('https://accounts.google.com/gsi/style');
    connect.push('https://accounts.google.com/gsi/');
    frame.push('https://accounts.google.com/gsi/');
    img.push('https://lh3.googleusercontent.com');
  }
  return [
    "default-src 'self'",
    `script-src ${script.join(' ')}`,
    `style-src ${style.join(' ')}`,
    `img-src ${img.join(' ')}`,
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    `media-src ${media.join(' ')}`,
    `frame-src ${frame.length ? frame.join(' ') : "'none'"}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${form.join(' ')}`,
    "frame-ancestors 'none'",
  ].join('; ');
}
