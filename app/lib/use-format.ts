import { useMemo } from 'react';
import {
  localDate,
  localDuration,
  localFileSize,
  localFileSizeMb,
  localIsoDate,
  localList,
  localMinutes,
  localMoney,
  localNumber,
} from '../../common/locale-format';
import { useLocale } from './use-locale';

/** Dates, durations, numbers and money in the page's language (English keeps the formats of docs/product.md#formats-on-screen). */
export function useFormat() {
  const lang = useLocale();
  return useMemo(
    () => ({
      date: (seconds: unknown) => localDate(lang, seconds),
      isoDate: (iso: string | null | undefined) => localIsoDate(lang, iso),
      duration: (seconds: number) => localDuration(lang, seconds),
      number: (n: number, fractionDigits = 0) => localNumber(lang, n, fractionDigits),
      minutes: (n: number) => localMinutes(lang, n),
      money: (minor: number, currency: string) => localMoney(lang, minor, currency),
      list: (items: readonly string[]) => localList(lang, items),
      fileSize: (bytes: number) => localFileSize(lang, bytes),
      fileSizeMb: (mb: number) => localFileSizeMb(lang, mb),
    }),
    [lang],
  );
}
