import { localFileSizeMb } from './locale-format';
import type { Locale } from './locales';

/**
 * The placeholders a message is filled with: an answer's data as it came, plus what a sentence
 * shows formatted — a size in MiB (`limit_mb`, `max_mb`) as `limit_size`, `max_size`, written by the one size
 * formatter ('1 GB', '200 MB', '200 Mo'), so no message spells out a unit next to a raw number.
 */
export function messageValues(lang: Locale, data: unknown): Record<string, unknown> {
  const values: Record<string, unknown> =
    data && typeof data === 'object' && !Array.isArray(data) ? { ...(data as Record<string, unknown>) } : {};
  // A plan's limit (limit_mb) and a fixed maximum (max_mb), each beside its number.
  for (const [mb, size] of [
    ['limit_mb', 'limit_size'],
    ['max_mb', 'max_size'],
  ] as const) {
    const n = values[mb];
    if (typeof n === 'number' && Number.isFinite(n)) values[size] = localFileSizeMb(lang, n);
  }
  return values;
}
