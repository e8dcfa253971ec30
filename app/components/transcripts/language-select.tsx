import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { languageTag, WHISPER_LANGUAGES, type WhisperLanguage } from '../../../common/whisper-languages';
import { useLocale } from '../../lib/use-locale';

/** A language's name in the interface language (the browser knows them all). */
export function useLanguageName() {
  const locale = useLocale();
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([locale, 'en'], { type: 'language' });
    } catch {
      names = null;
    }
    return (code: string) => {
      try {
        return names?.of(languageTag(code as WhisperLanguage)) ?? code;
      } catch {
        return code;
      }
    };
  }, [locale]);
}

export function LanguageSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (code: string) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const nameOf = useLanguageName();
  const options = useMemo(
    () =>
      WHISPER_LANGUAGES.map((code) => ({ code, name: nameOf(code) })).sort((a, b) =>
        a.name.localeCompare(b.name, locale),
      ),
    [nameOf, locale],
  );
  return (
    <select
      id={id}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none"
    >
      <option value="auto">{t('transcripts.autoDetect')}</option>
      {options.map((o) => (
        <option key={o.code} value={o.code}>
          {o.name}
        </option>
      ))}
    </select>
  );
}
