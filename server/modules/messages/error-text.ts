import i18next, { type i18n as I18n } from 'i18next';
import { DEFAULT_LOCALE, type Locale } from '../../../common/locales';
import { messageValues } from '../../../common/message-values';

// An error answer's readable sentence, from the same locale files and the same i18next rules
// (placeholders, plurals) the app uses, so an API client reads what a page would show.

type Messages = Record<string, unknown>;

// One chunk per language, loaded on first use (the server build bundles each file separately).
const FILES: Record<Locale, () => Promise<{ default: Messages }>> = {
  en: () => import('../../../app/locales/en.json'),
  de: () => import('../../../app/locales/de.json'),
  es: () => import('../../../app/locales/es.json'),
  fr: () => import('../../../app/locales/fr.json'),
  ja: () => import('../../../app/locales/ja.json'),
  ko: () => import('../../../app/locales/ko.json'),
  pt: () => import('../../../app/locales/pt.json'),
  tw: () => import('../../../app/locales/tw.json'),
  vi: () => import('../../../app/locales/vi.json'),
  zh: () => import('../../../app/locales/zh.json'),
};

const instances = new Map<Locale, Promise<I18n>>();

function instanceFor(lang: Locale): Promise<I18n> {
  let made = instances.get(lang);
  if (!made) {
    made = Promise.all([FILES[lang](), lang === DEFAULT_LOCALE ? null : FILES[DEFAULT_LOCALE]()]).then(
      async ([own, fallback]) => {
        // Only what an answer can name: error and field messages.
        const pick = (m: Messages) => ({ errors: m.errors, validation: m.validation });
        const resources: Record<string, { translation: Messages }> = {
          [lang]: { translation: pick(own.default) },
        };
        if (fallback) resources[DEFAULT_LOCALE] = { translation: pick(fallback.default) };
        const instance = i18next.createInstance();
        await instance.init({
          lng: lang,
          fallbackLng: DEFAULT_LOCALE,
          resources,
          interpolation: { escapeValue: false },
          initAsync: false,
          returnNull: false,
        });
        return instance;
      },
    );
    made.catch(() => instances.delete(lang));
    instances.set(lang, made);
  }
  return made;
}

/** True when `key` names a message of the locale files (not free text). */
export function isMessageKey(key: string): boolean {
  return /^(errors|validation)\.[\w.]+$/.test(key);
}

/**
 * `key` as a sentence in `lang` (English when the language lacks it), its `{{placeholders}}`
 * filled from `data`; the key itself when no language has it.
 */
export async function errorText(lang: Locale, key: string, data: unknown): Promise<string> {
  const t = (await instanceFor(lang)).t;
  const text = t(key, { ...messageValues(lang, data), defaultValue: key });
  return typeof text === 'string' ? text : key;
}
