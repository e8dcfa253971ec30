import type { Locale } from '../../common/locales';
import type { Messages } from './i18n';

// Each locale is its own chunk on the server; a page receives only its language.
const files = import.meta.glob<{ default: Messages }>('../locales/*.json');

export async function loadMessages(lang: Locale): Promise<Messages> {
  const load = files[`../locales/${lang}.json`] ?? files['../locales/en.json'];
  if (!load) throw new Error(`messages for ${lang} missing`);
  return (await load()).default;
}
