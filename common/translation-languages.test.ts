import { describe, expect, it } from 'vitest';
import { searchLanguages, translationLanguage, TRANSLATION_LANGUAGES } from './translation-languages';

describe('translation languages', () => {
  it('lists at least 100 languages, each code once, with a native name', () => {
    expect(TRANSLATION_LANGUAGES.length).toBeGreaterThanOrEqual(100);
    expect(new Set(TRANSLATION_LANGUAGES.map((l) => l.code.toLowerCase())).size).toBe(
      TRANSLATION_LANGUAGES.length,
    );
    for (const l of TRANSLATION_LANGUAGES) expect(l.native.length).toBeGreaterThan(0);
  });

  it('finds a language by its English name, its own name (accents aside), its code or a local name', () => {
    expect(searchLanguages('japan').map((l) => l.code)).toEqual(['ja']);
    expect(searchLanguages('espanol').map((l) => l.code)).toEqual(['es']);
    expect(searchLanguages('日本').map((l) => l.code)).toEqual(['ja']);
    expect(
      searchLanguages('Spanisch', (c) => (c === 'es' ? 'Spanisch' : undefined)).map((l) => l.code),
    ).toEqual(['es']);
    expect(translationLanguage('ZH-tw')?.native).toBe('繁體中文');
    expect(translationLanguage('klingon')).toBeNull();
  });
});
