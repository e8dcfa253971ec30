import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './locales';

// Every UI string exists in all ten languages, keeps its placeholders, and is not left in English.
type Tree = { [k: string]: string | Tree };
const load = (l: string) => JSON.parse(readFileSync(`app/locales/${l}.json`, 'utf8')) as Tree;
const flat = (t: Tree, pre = ''): [string, string][] =>
  Object.entries(t).flatMap(([k, v]) =>
    typeof v === 'string' ? [[pre + k, v] as [string, string]] : flat(v, `${pre}${k}.`),
  );

const en = new Map(flat(load('en')));

describe.each(LOCALES.filter((l) => l !== 'en'))('locale %s', (lang) => {
  const messages = new Map(flat(load(lang)));
  it('has exactly the keys of en.json', () => {
    expect([...en.keys()].filter((k) => !messages.has(k))).toEqual([]);
    expect([...messages.keys()].filter((k) => !en.has(k))).toEqual([]);
  });
  it('keeps every placeholder and tag', () => {
    for (const [key, text] of en) {
      const wanted = text.match(/\{\{\w+\}\}|<\/?\w+>/g) ?? [];
      for (const w of wanted) expect(messages.get(key), `${lang}:${key}`).toContain(w);
    }
  });
  it('is really translated (few values identical to English)', () => {
    const long = [...en].filter(([, v]) => v.length > 25);
    const same = long.filter(([k, v]) => messages.get(k) === v).map(([k]) => k);
    expect(same).toEqual([]);
  });
});

// Translations and captioned videos: even short labels are in the language. A value equal to
// English is allowed only where the word really is the same there (listed, so a new one is looked at).
const SAME_WORD: Record<string, string[]> = {
  de: ['render.presets.karaoke', 'render.position', 'render.textColor'],
  es: ['render.presets.karaoke'],
  fr: ['render.style', 'render.position'],
  vi: ['render.presets.karaoke'],
};
const OWN_PAGES = /^(translation|render|glossary|errors\.(render|translation))\./;
describe.each(LOCALES.filter((l) => l !== 'en'))('translation and render strings %s', (lang) => {
  it('are translated, short labels too', () => {
    const messages = new Map(flat(load(lang)));
    const same = [...en]
      .filter(([k, v]) => OWN_PAGES.test(k) && messages.get(k) === v && /\p{L}{2}/u.test(v))
      .map(([k]) => k);
    expect(same).toEqual(SAME_WORD[lang] ?? []);
  });
});

// The generated language-name tables (scripts/language-names.mjs): one name per transcription
// language in every interface language, never the bare code.
describe.each(LOCALES)('language names %s', (lang) => {
  it('names every transcription language', async () => {
    const { WHISPER_LANGUAGES } = await import('./whisper-languages');
    const names = JSON.parse(readFileSync(`app/locales/languages/${lang}.json`, 'utf8')) as Record<
      string,
      string
    >;
    expect(Object.keys(names).sort()).toEqual([...WHISPER_LANGUAGES].sort());
    for (const [code, name] of Object.entries(names)) expect(name.toLowerCase(), code).not.toBe(code);
  });
});

// Counts use plural forms (key_one/key_other with {{count}}), never "file(s)" or "Datei(en)".
describe.each(LOCALES)('counted words %s', (lang) => {
  it('has no "(s)"-style plurals', () => {
    const bad = flat(load(lang)).filter(([, v]) =>
      /\p{L}\((?:s|es|en|e|n|x)\)/u.test(v.replace(/https?\(s\)/g, '')),
    );
    expect(bad.map(([k]) => k)).toEqual([]);
  });
});

// German speaks to people as "Sie" everywhere: no "du" forms slip in with new pages.
describe('German form of address', () => {
  it('uses "Sie", never "du"', () => {
    const informal =
      /\b(du|dir|dich|dein|deine|deinen|deinem|deiner|deines)\b|(^|[.!?:]\s+)(Versuche|Wähle|Wechsle|Füge|Klicke|Gib|Öffne|Lade|Nutze|Prüfe|Schreibe|Melde|Sieh|Warte|Teile|Lege|Erstelle|Kopiere|Ziehe)\s/;
    const bad = flat(load('de')).filter(([, v]) => informal.test(v));
    expect(bad).toEqual([]);
  });
});

// Key names in the shortcut hints are in the page's language, not English ("Space").
describe.each(LOCALES.filter((l) => l !== 'en'))('shortcut hints %s', (lang) => {
  it('names the keys in the language', () => {
    const shortcuts = (load(lang) as { editor: { shortcuts: string } }).editor.shortcuts;
    expect(shortcuts).not.toMatch(/\bSpace\b/);
  });
});
