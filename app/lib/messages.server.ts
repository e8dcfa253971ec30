import type { Locale } from '../../common/locales';
import type { Messages } from './i18n';

// Each locale is its own chunk on the server; a page receives only its language.
const files = import.meta.glob<{ default: Messages }>('../locales/*.json');
const languageNames = import.meta.glob<{ default: Record<string, string> }>('../locales/languages/*.json');

export async function loadMessages(lang: Locale): Promise<Messages> {
  const load = files[`../locales/${lang}.json`] ?? files['../locales/en.json'];
  if (!load) throw new Error(`messages for ${lang} missing`);
  const names = languageNames[`../locales/languages/${lang}.json`];
  const [messages, languages] = await Promise.all([load(), names ? names() : null]);
  // Transcription languages' names travel with the page (the browser's own table is incomplete).
  return languages ? { ...messages.default, languageNames: languages.default } : messages.default;
}
