import { describe, expect, it } from 'vitest';
import { detectLocale, localeFromAcceptLanguage, localizePath, splitLocalePath } from './locales';

describe('locale detection', () => {
  it('prefers the cookie, then Accept-Language, then en', () => {
    expect(detectLocale('fr', 'de-DE,de;q=0.9')).toBe('fr');
    expect(detectLocale('xx', 'de-DE,de;q=0.9')).toBe('de');
    expect(detectLocale(undefined, 'ru,pl;q=0.8')).toBe('en');
    expect(detectLocale(null, null)).toBe('en');
  });
  it('honours q-values and maps Chinese scripts', () => {
    expect(localeFromAcceptLanguage('en;q=0.5, ja;q=0.9')).toBe('ja');
    expect(localeFromAcceptLanguage('zh-TW,zh;q=0.9')).toBe('tw');
    expect(localeFromAcceptLanguage('zh-Hant-HK')).toBe('tw');
    expect(localeFromAcceptLanguage('zh-CN')).toBe('zh');
    expect(localeFromAcceptLanguage('pt-BR;q=0, vi')).toBe('vi');
  });
});

describe('locale paths', () => {
  it('splits and builds prefixed paths', () => {
    expect(splitLocalePath('/de/login')).toEqual({ lang: 'de', rest: '/login', prefixed: true });
    expect(splitLocalePath('/de')).toEqual({ lang: 'de', rest: '/', prefixed: true });
    expect(splitLocalePath('/dashboard')).toEqual({ lang: 'en', rest: '/dashboard', prefixed: false });
    expect(splitLocalePath('/xx/login').prefixed).toBe(false);
    expect(localizePath('/', 'ko')).toBe('/ko');
    expect(localizePath('/pricing', 'en')).toBe('/pricing');
    expect(localizePath('pricing', 'tw')).toBe('/tw/pricing');
  });
});
