// Pure form/input validators. Shared by browser and server code, so no DOM or
// Node-specific APIs here.

/** Result of a validator that can explain itself. `message` is an i18n key. */
export type ValidationResult = { ok: true } | { ok: false; message: string };

const OK: ValidationResult = { ok: true };
const fail = (message: string): ValidationResult => ({ ok: false, message });

/** i18n keys returned by the validators below (translations live in the i18n bundle). */
export const VALIDATION_MESSAGES = {
  mobileEmpty: 'validation.mobile.empty',
  mobileLength: 'validation.mobile.length',
  mobileFormat: 'validation.mobile.format',
  chineseIdEmpty: 'validation.chineseId.empty',
  chineseIdLength: 'validation.chineseId.length',
  chineseIdFormat: 'validation.chineseId.format',
  chineseIdRegion: 'validation.chineseId.region',
  chineseIdChecksum: 'validation.chineseId.checksum',
} as const;

const KNOWN_USERNAMES = new Set(['admin', 'editor']);

/** Only the built-in demo accounts are valid user names. */
export function validUsername(s: string): boolean {
  return KNOWN_USERNAMES.has(s.trim());
}

// Local part: dot-separated atoms, so no leading, trailing or doubled dots.
// Domain: labels of letters/digits/hyphens that neither start nor end with a
// hyphen (max 63 chars each), followed by an alphabetic TLD of 2+ letters.
const STRICT_EMAIL =
  /^[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;
const LOOSE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Conservative RFC-like check: rejects many technically valid but unusual addresses. */
export function validEmailStrict(s: string): boolean {
  return STRICT_EMAIL.test(s);
}

/** Permissive check: something@something.something without whitespace. */
export function validEmailLoose(s: string): boolean {
  return LOOSE_EMAIL.test(s);
}

/** Mainland China mobile number: 11 digits starting with 1. Surrounding whitespace is ignored. */
export function validateMobile(s: string | null | undefined): ValidationResult {
  const v = (s ?? '').trim();
  if (v === '') return fail(VALIDATION_MESSAGES.mobileEmpty);
  if (!/^\d{11}$/.test(v)) return fail(VALIDATION_MESSAGES.mobileLength);
  if (!v.startsWith('1')) return fail(VALIDATION_MESSAGES.mobileFormat);
  return OK;
}

/** Landline: optional `AAA-`/`AAAA-` area code, then 7–8 digits. */
export function validLandline(s: string): boolean {
  return /^(?:\d{3,4}-)?\d{7,8}$/.test(s);
}

// Host is dot-separated labels (Unicode letters allowed for IDNs) or a
// bracketed IPv6 literal, optional port, then an optional path/query/fragment
// without whitespace.
const URL_RE =
  /^https?:\/\/(?:[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?:[/?#]\S*)?$/u;

/** http(s) URL with a host. Rejects other schemes, a missing host and whitespace. */
export function validUrl(s: string): boolean {
  return URL_RE.test(s);
}

/** Non-empty, ASCII a–z only. */
export function validLowerCase(s: string): boolean {
  return /^[a-z]+$/.test(s);
}

/** Non-empty, ASCII A–Z only. */
export function validUpperCase(s: string): boolean {
  return /^[A-Z]+$/.test(s);
}

/** Non-empty, ASCII letters only. */
export function validAlphabets(s: string): boolean {
  return /^[A-Za-z]+$/.test(s);
}

/** Non-empty, ASCII digits 0–9 only (no sign, decimal point or spaces). */
export function validNumeric(s: string): boolean {
  return /^[0-9]+$/.test(s);
}

const MOBILE_UA = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i;

/** Heuristic: any well-known mobile/tablet token in the user agent. */
export function isMobileUserAgent(ua: string): boolean {
  return MOBILE_UA.test(ua);
}

/** Everything that is not recognised as mobile (including an empty UA) counts as desktop. */
export function isDesktopUserAgent(ua: string): boolean {
  return !isMobileUserAgent(ua);
}

/** 2–4 CJK unified ideographs (incl. extension blocks); no spaces, dots or other scripts. */
export function validChineseName(s: string): boolean {
  return /^\p{Unified_Ideograph}{2,4}$/u.test(s);
}

// Province-level codes (first two digits of the address code), incl.
// Taiwan (71), Hong Kong (81), Macau (82) and overseas (91).
// prettier-ignore
const PROVINCE_CODES = new Set([
  '11', '12', '13', '14', '15', '21', '22', '23', '31', '32', '33', '34', '35', '36', '37',
  '41', '42', '43', '44', '45', '46', '50', '51', '52', '53', '54', '61', '62', '63', '64',
  '65', '71', '81', '82', '91',
]);

// 6-digit address, YYYYMMDD birth date (years 1800–2099), 3-digit sequence, check char.
const CHINESE_ID_RE = /^\d{6}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dX]$/;

// ISO 7064 MOD 11-2.
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK_CHARS = '10X98765432';

/** Check character for the first 17 digits of a Chinese national ID. */
export function chineseIdCheckChar(first17: string): string {
  if (!/^\d{17}$/.test(first17)) throw new RangeError('expected exactly 17 digits');
  const sum = ID_WEIGHTS.reduce((acc, w, i) => acc + w * Number(first17.charAt(i)), 0);
  return ID_CHECK_CHARS.charAt(sum % 11);
}

// The regex allows e.g. Feb 30; reject dates that do not exist on the calendar.
function isRealDate(yyyymmdd: string): boolean {
  const y = Number(yyyymmdd.slice(0, 4));
  const m = Number(yyyymmdd.slice(4, 6));
  const d = Number(yyyymmdd.slice(6, 8));
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * 18-character mainland Chinese national ID (17 digits + digit or X, lowercase x accepted).
 * Checks, in order: empty, length, format (incl. real birth date), province code, check digit.
 */
export function validateChineseId(s: string | null | undefined): ValidationResult {
  const v = (s ?? '').trim().toUpperCase();
  if (v === '') return fail(VALIDATION_MESSAGES.chineseIdEmpty);
  if (v.length !== 18) return fail(VALIDATION_MESSAGES.chineseIdLength);
  if (!CHINESE_ID_RE.test(v) || !isRealDate(v.slice(6, 14))) {
    return fail(VALIDATION_MESSAGES.chineseIdFormat);
  }
  if (!PROVINCE_CODES.has(v.slice(0, 2))) return fail(VALIDATION_MESSAGES.chineseIdRegion);
  if (chineseIdCheckChar(v.slice(0, 17)) !== v.charAt(17)) {
    return fail(VALIDATION_MESSAGES.chineseIdChecksum);
  }
  return OK;
}

/** Ids in routes and API paths are UUIDs (v1–v8); anything else is a 404 before any lookup. */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
