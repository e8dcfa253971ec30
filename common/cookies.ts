// Cookie names and lifetimes (docs/product.md#browser-state, #referrals, #languages).
export const PROJECT = 'clipscribe';
export const REF_COOKIE = `${PROJECT}_REF_CODE`;
export const REF_COOKIE_MAX_AGE = 90 * 24 * 3600;
export const SESSION_COOKIE = 'token';
export const SESSION_MAX_AGE = 30 * 24 * 3600;
/** The workspace the pages work in (decision 0027): set by the header's switcher, a year long. */
export const WORKSPACE_COOKIE = `${PROJECT}_workspace`;
export const WORKSPACE_COOKIE_MAX_AGE = 365 * 24 * 3600;
/** The header an API call names its workspace with (a key's own workspace only). */
export const WORKSPACE_HEADER = 'X-Workspace';

/** Referral codes are short runs of letters, digits, '-' and '_'; anything else is ignored. */
export function normalizeRefCode(value: string | null | undefined): string | null {
  if (!value) return null;
  const v = value.trim();
  return /^[A-Za-z0-9_-]{3,32}$/.test(v) ? v.toUpperCase() : null;
}

/** Reads one cookie from a Cookie header (or document.cookie). */
export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return part.slice(i + 1).trim();
      }
    }
  }
  return null;
}

/**
 * The referral cookie to write for a visit to `search`, or null: only for a valid ?ref, only when
 * none is set (the first click wins), never for crawlers. The server applies it to page loads;
 * the browser to client-side navigations, through this one rule.
 */
export function referralCookieFor(
  search: string,
  cookieHeader: string | null | undefined,
  crawler: boolean,
): string | null {
  const ref = normalizeRefCode(new URLSearchParams(search).get('ref'));
  if (!ref || crawler || readCookie(cookieHeader, REF_COOKIE)) return null;
  return `${REF_COOKIE}=${ref}; Max-Age=${REF_COOKIE_MAX_AGE}; Path=/; SameSite=Lax`;
}
