import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '../../common/locales';

export type Messages = Record<string, unknown>;

/**
 * One i18next instance per language and messages object, made once: on the server every page of a
 * language gets the same messages module, and setting up an instance took a tenth of a page's
 * render time (CPU profile, decision 0015). Nothing changes an instance's language afterwards.
 */
const instances = new WeakMap<Messages, Map<Locale, I18n>>();

/** The i18next instance for a language; messages arrive with the root loader's data. */
export function createI18n(lang: Locale, messages: Messages): I18n {
  let byLang = instances.get(messages);
  if (!byLang) instances.set(messages, (byLang = new Map()));
  const known = byLang.get(lang);
  if (known) return known;
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { translation: messages } },
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  byLang.set(lang, instance);
  return instance;
}
