// Writes app/locales/languages/<locale>.json: every transcription language's name in each
// interface language, sorted for that language. Generated with Node's full ICU because browsers
// ship less (Chromium has no name for "ba" or "bo"), and one table keeps the server's render and
// the browser's hydration identical. Re-run after changing WHISPER_LANGUAGES or the locales:
//   node --import tsx scripts/language-names.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LOCALES, LOCALE_TAGS } from '../common/locales.ts';
import { WHISPER_LANGUAGES, languageTag } from '../common/whisper-languages.ts';

const dir = path.resolve('app/locales/languages');
mkdirSync(dir, { recursive: true });
for (const locale of LOCALES) {
  const tag = LOCALE_TAGS[locale];
  const names = new Intl.DisplayNames([tag], { type: 'language', fallback: 'none' });
  const entries = WHISPER_LANGUAGES.map((code) => {
    const name = names.of(languageTag(code));
    if (!name) throw new Error(`no ${tag} name for ${code}`);
    // Sentence case at the start of a list entry (French and Spanish names are lower-case).
    return [code, name.charAt(0).toLocaleUpperCase(tag) + name.slice(1)];
  });
  entries.sort((a, b) => a[1].localeCompare(b[1], tag));
  writeFileSync(
    path.join(dir, `${locale}.json`),
    JSON.stringify(Object.fromEntries(entries), null, 2) + '\n',
  );
}
console.log(`wrote ${LOCALES.length} files to ${path.relative(process.cwd(), dir)}`);
