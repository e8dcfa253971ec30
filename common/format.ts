// Display formatting helpers. All output is locale-independent on purpose so
// server-rendered and client-rendered markup match (no hydration mismatches).

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * Unix timestamp in SECONDS → 'Mon DD YYYY' in UTC, e.g. 'Jan 05 2024'.
 * Anything that is not a finite number (including numeric strings) → '--'.
 */
export function formatDate(secondsTimestamp: unknown): string {
  if (typeof secondsTimestamp !== 'number' || !Number.isFinite(secondsTimestamp)) return '--';
  const d = new Date(secondsTimestamp * 1000);
  // Beyond the Date range (±8.64e15 ms) the date is invalid.
  if (Number.isNaN(d.getTime())) return '--';
  return `${MONTHS[d.getUTCMonth()] ?? ''} ${pad2(d.getUTCDate())} ${d.getUTCFullYear()}`;
}

// Negative, NaN and infinite inputs are treated as zero so players never show garbage.
const wholeSeconds = (seconds: number): number =>
  Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;

/** Media clock: 'm:ss' below one hour, 'h:mm:ss' from one hour. Fractions are floored. */
export function formatTime(seconds: number): string {
  const total = wholeSeconds(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${pad2(m)}:${pad2(s)}` : `${m}:${pad2(s)}`;
}

/** Human duration like '1h 2m 3s'; leading zero units are dropped, inner ones kept ('1h 0m 5s'). */
export function formatDuration(seconds: number): string {
  const total = wholeSeconds(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${m}m ${s}s`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}

/**
 * Hide most of an email's local part: keep 3 chars, or floor(len/2) when the
 * local part has ≤ 3 chars, and replace the rest 1:1 with '*'.
 * Input without '@' is returned unchanged.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  // Code points, so an astral character is never split into half a surrogate pair.
  const local = Array.from(email.slice(0, at));
  const keep = local.length <= 3 ? Math.floor(local.length / 2) : 3;
  return local.slice(0, keep).join('') + '*'.repeat(local.length - keep) + email.slice(at);
}

/** 'jOHN' → 'John': lower-case everything, then upper-case the first character. */
export function formatName(s: string): string {
  const lower = s.toLowerCase();
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}
