import { useTranslation } from 'react-i18next';
import { LOCALES, LOCALE_NAMES } from '../../../common/locales';

/** An AI output's language picker options: the ten interface languages and the transcript's own. */
export function LanguageOptions({ transcriptLanguage }: { transcriptLanguage: string | null }) {
  const { t } = useTranslation();
  return (
    <>
      {LOCALES.map((l) => (
        <option key={l} value={l}>
          {LOCALE_NAMES[l]}
        </option>
      ))}
      <option value="transcript">
        {transcriptLanguage
          ? t('ai.languageTranscriptNamed', { name: transcriptLanguage })
          : t('ai.languageTranscript')}
      </option>
    </>
  );
}
