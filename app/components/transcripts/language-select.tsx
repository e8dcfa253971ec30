import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import enNames from '../../locales/languages/en.json';

type Names = Record<string, string>;

/**
 * Transcription languages' names in the interface language, in its sort order. The tables are
 * generated from Intl.DisplayNames with full ICU (scripts/language-names.mjs): browsers lack some
 * names ("ba", "bo") and would otherwise show raw codes and differ from the server's render.
 * Other languages' tables arrive with the page's messages; English is in the bundle.
 */
function useNames(): Names {
  const { i18n } = useTranslation();
  const names = i18n.getResource(i18n.language, 'translation', 'languageNames') as Names | undefined;
  return names ?? (enNames as Names);
}

/** A language's name in the interface language; an unknown code is shown as it is. */
export function useLanguageName() {
  const names = useNames();
  return useMemo(() => (code: string) => names[code] ?? names[code.toLowerCase()] ?? code, [names]);
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
  const names = useNames();
  const options = useMemo(() => Object.entries(names).map(([code, name]) => ({ code, name })), [names]);
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
