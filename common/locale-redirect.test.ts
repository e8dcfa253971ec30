import { describe, expect, it } from 'vitest';
import { decideLocale, withoutEnPrefix } from './locale-redirect';

const base = { search: '', cookie: null, acceptLanguage: null, isBot: false };

describe('decideLocale', () => {
  it('sends /en paths permanently to the unprefixed path, also for crawlers', () => {
    expect(decideLocale({ ...base, pathname: '/en/pricing', search: '?a=1' }).redirect).toEqual({
      location: '/pricing?a=1',
      status: 301,
    });
    expect(decideLocale({ ...base, pathname: '/en', isBot: true }).redirect?.location).toBe('/');
  });
  it('follows the cookie first', () => {
    expect(
      decideLocale({ ...base, pathname: '/login', cookie: 'de', acceptLanguage: 'fr' }).redirect,
    ).toEqual({
      location: '/de/login',
      status: 302,
    });
    expect(decideLocale({ ...base, pathname: '/ja/login', cookie: 'en' }).redirect?.location).toBe('/login');
    expect(decideLocale({ ...base, pathname: '/de/login', cookie: 'de' })).toEqual({});
  });
  it('uses Accept-Language on a first visit to an unprefixed path and remembers it', () => {
    expect(decideLocale({ ...base, pathname: '/', acceptLanguage: 'ko-KR,ko;q=0.9' })).toEqual({
      redirect: { location: '/ko', status: 302 },
      remember: 'ko',
    });
    expect(decideLocale({ ...base, pathname: '/pricing', acceptLanguage: 'en-US' })).toEqual({
      remember: 'en',
    });
  });
  it('honours an explicit prefix on a first visit', () => {
    expect(decideLocale({ ...base, pathname: '/fr/terms', acceptLanguage: 'de' })).toEqual({
      remember: 'fr',
    });
  });
  it('never redirects crawlers', () => {
    expect(decideLocale({ ...base, pathname: '/', cookie: 'de', acceptLanguage: 'de', isBot: true })).toEqual(
      {},
    );
  });
  it('never builds a location that leaves the site from a path with repeated slashes', () => {
    const cases = [
      { pathname: '/en//evil.example/login' },
      { pathname: '/en/\\evil.example/login' },
      { pathname: '/en///evil.example' },
      { pathname: '/de//evil.example/login', cookie: 'en' },
      { pathname: '//evil.example/login', acceptLanguage: 'de' },
      { pathname: '/ja//evil.example', cookie: 'en', isBot: false },
    ];
    for (const c of cases) {
      const location = decideLocale({ ...base, ...c }).redirect?.location;
      expect(location, c.pathname).toMatch(/^\/(?![/\\])/);
    }
    expect(decideLocale({ ...base, pathname: '/en//evil.example/login' }).redirect?.location).toBe(
      '/evil.example/login',
    );
    expect(withoutEnPrefix('/en//evil.example')).toBe('/evil.example');
    expect(withoutEnPrefix('/en')).toBe('/');
    expect(withoutEnPrefix('/de/x')).toBeNull();
  });
});
