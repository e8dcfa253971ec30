import { localFileSizeMb } from './locale-format';
import type { Locale } from './locales';

/**
 * The placeholders a message is filled with: an answer's data as it came, plus what a sentence
 * shows formatted — a limit in MiB (`limit_mb`) as `limit_size`, written by the one size
 * formatter ('1 GB', '200 MB', '200 Mo'), so no message spells out a unit next to a raw number.
 */
export function messageValues(lang: Locale, data: unknown): Record<string, unknown> {
  const values: Record<string, unknown> =
    data && typeof data === 'object' && !Array.isArray(data) ? { ...(data as Record<string, unknown>) } : {};
  if (typeof values.limit_mb === 'number' && Number.isFinite(values.limit_mb)) {
    values.limit_size = localFileSizeMb(lang, values.limit_mb);
  }
  return values;
}
