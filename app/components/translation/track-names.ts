import { useMemo } from 'react';
import { translationLanguage } from '../../../common/translation-languages';
import { LOCALE_TAGS } from '../../../common/locales';
import { useLocale } from '../../lib/use-locale';
import { useLanguageName } from '../transcripts/language-select';

// Intl knows the written variants by script, not by region.
const INTL_TAG: Record<string, string> = { 'zh-TW': 'zh-Hant', zh: 'zh-Hans' };

/**
 * A translation language's name in the interface language: the generated table the transcription
 * languages use (the same on server and browser), else the browser's Intl.DisplayNames, else the
 * English name. English pages use the list's own English names.
 */
export function useTrackLanguageName(): (code: string) => string {
  const lang = useLocale();
  const tableName = useLanguageName();
  return useMemo(() => {
    let intl: Intl.DisplayNames | null = null;
    try {
      intl = new Intl.DisplayNames([LOCALE_TAGS[lang]], { type: 'language' });
    } catch {
      intl = null;
    }
    return (code: string) => {
      const entry = translationLanguage(code);
      if (lang === 'en' && entry) return entry.name;
      if (!code.includes('-') && !INTL_TAG[code]) {
        const fromTable = tableName(code);
        if (fromTable !== code) return fromTable;
      }
      try {
        const fromIntl = intl?.of(INTL_TAG[code] ?? code);
        if (fromIntl && fromIntl.toLowerCase() !== code.toLowerCase()) return fromIntl;
      } catch {
        // an unknown tag: fall through
      }
      return entry?.name ?? code;
    };
  }, [lang, tableName]);
}
