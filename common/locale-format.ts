// Dates, numbers, durations and money in the page's language (Intl). English keeps the fixed
// formats of docs/product.md#formats-on-screen ('Jan 05 2024', '1h 2m 3s'), and so do exports; other languages get their conventions.
// Dates are shown in UTC, so the server's render and the browser's hydration always agree.
import { formatDate, formatDuration } from './format';
import { DEFAULT_LOCALE, LOCALE_TAGS, type Locale } from './locales';

const wholeSeconds = (seconds: number): number =>
  Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;

/** 'Jan 05 2024' in English; '05.01.2024', '2024/01/05' … elsewhere. '--' when not a date. */
export function localDate(lang: Locale, secondsTimestamp: unknown): string {
  if (lang === DEFAULT_LOCALE) return formatDate(secondsTimestamp);
  if (typeof secondsTimestamp !== 'number' || !Number.isFinite(secondsTimestamp)) return '--';
  const d = new Date(secondsTimestamp * 1000);
  if (Number.isNaN(d.getTime())) return '--';
  return new Intl.DateTimeFormat(LOCALE_TAGS[lang], { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
}

/** An ISO date string, as localDate. */
export function localIsoDate(lang: Locale, iso: string | null | undefined): string {
  const ms = iso ? Date.parse(iso) : NaN;
  return localDate(lang, Number.isFinite(ms) ? ms / 1000 : null);
}

/** '3m 41s' in English; '3 Min. 41 Sek.', '3 分 41 秒' … elsewhere. */
export function localDuration(lang: Locale, seconds: number): string {
  if (lang === DEFAULT_LOCALE) return formatDuration(seconds);
  const total = wholeSeconds(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const unit = (u: 'hour' | 'minute' | 'second', n: number) =>
    new Intl.NumberFormat(LOCALE_TAGS[lang], { style: 'unit', unit: u, unitDisplay: 'short' }).format(n);
  if (h > 0) return `${unit('hour', h)} ${unit('minute', m)} ${unit('second', s)}`;
  if (m > 0) return `${unit('minute', m)} ${unit('second', s)}`;
  return unit('second', s);
}

/** A number with the language's separators ('2,400' · '2.400' · '2 400'). */
export function localNumber(lang: Locale, n: number, maximumFractionDigits = 0): string {
  return new Intl.NumberFormat(LOCALE_TAGS[lang], { maximumFractionDigits }).format(n);
}

/** Items joined as the language lists them ('VTT, DOCX, and JSON' · 'VTT, DOCX und JSON' · 'VTT、DOCX、JSON'). */
export function localList(lang: Locale, items: readonly string[]): string {
  return new Intl.ListFormat(LOCALE_TAGS[lang], { type: 'conjunction' }).format(items);
}

/** Transcription minutes, one decimal at most, the same on every page ('4.6'). */
export function localMinutes(lang: Locale, minutes: number): string {
  return localNumber(lang, Math.round(minutes * 10) / 10, 1);
}

/** Money from integer minor units ('€12.00' · '12,00 €' · '$12.00'). */
export function localMoney(lang: Locale, minor: number, currency: string): string {
  const f = new Intl.NumberFormat(LOCALE_TAGS[lang], { style: 'currency', currency: currency.toUpperCase() });
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(minor / 10 ** digits);
}

const MIB = 1024 * 1024;

/**
 * A file size in the language's units, the one formatter for limits and files alike: 1024 MiB
 * reads '1 GB' (as plans are sold), 200 MiB '200 MB', 3.4 MiB '3.4 MB'; French writes 'Go'/'Mo'.
 */
export function localFileSize(lang: Locale, bytes: number): string {
  const mb = Math.max(0, bytes) / MIB;
  const [n, unit] = mb >= 1024 ? [mb / 1024, 'gigabyte'] : [mb, 'megabyte'];
  return new Intl.NumberFormat(LOCALE_TAGS[lang], {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: n < 10 ? 1 : 0,
  }).format(n);
}

/** A limit given in MiB (a plan's max_file_mb), as localFileSize. */
export const localFileSizeMb = (lang: Locale, mb: number): string => localFileSize(lang, mb * MIB);
