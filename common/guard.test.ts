import { describe, expect, it } from 'vitest';
import { collapseSlashes, guardRedirect, isProtocolRelative, pageForPath, safeFromPath } from './guard';

describe('pageForPath', () => {
  it('resolves static, dynamic, nested and splat pages', () => {
    expect(pageForPath('/')?.name).toBe('index');
    expect(pageForPath('/forgetPassword/sent')?.name).toBe('forgetPassword-sendSuccess');
    expect(pageForPath('/dashboard/folder/abc')?.name).toBe('dashboard-folder-id');
    expect(pageForPath('/affiliate/Settlement')?.name).toBe('affiliate-Settlement');
    expect(pageForPath('/affiliate/apply')?.name).toBe('affiliate-apply');
    expect(pageForPath('/tools/components/wd')?.name).toBe('tools-components-wd');
    expect(pageForPath('/tools/a/b/c')?.name).toBe('tools-slug');
    expect(pageForPath('/nope/x')?.name).toBe('not-found');
  });
});

describe('guardRedirect', () => {
  it('sends anonymous visitors of auth pages to login with the encoded full path', () => {
    expect(guardRedirect('/dashboard', '', false)).toBe('/login?from=%2Fdashboard');
    expect(guardRedirect('/de/transcript/5', '?t=3', false)).toBe(
      '/de/login?from=%2Fde%2Ftranscript%2F5%3Ft%3D3',
    );
    expect(guardRedirect('/affiliate/Assets', '', false)).toBe('/login?from=%2Faffiliate%2FAssets');
  });
  it('lets anonymous visitors see public pages', () => {
    for (const p of [
      '/',
      '/login',
      '/pricing',
      '/transcript/share/1/2',
      '/tools/x',
      '/privacy-policy',
      '/terms',
    ]) {
      expect(guardRedirect(p, '', false)).toBeNull();
    }
  });
  it('keeps logged-in users away from guest-only pages', () => {
    expect(guardRedirect('/login', '', true)).toBe('/dashboard');
    expect(guardRedirect('/ja/register', '', true)).toBe('/ja/dashboard');
    expect(guardRedirect('/forgetPassword/sent', '', true)).toBe('/dashboard');
    expect(guardRedirect('/resetPassword', '?token=x', true)).toBe('/dashboard');
    expect(guardRedirect('/register/verification', '', true)).toBeNull();
    expect(guardRedirect('/dashboard', '', true)).toBeNull();
  });
});

describe('safeFromPath', () => {
  it('accepts site paths', () => {
    expect(safeFromPath('/dashboard')).toBe('/dashboard');
    expect(safeFromPath('/de/transcript/1?x=1#s2')).toBe('/de/transcript/1?x=1#s2');
  });
  it('refuses anything that could leave the site', () => {
    for (const bad of [
      '//evil.com',
      'http://evil.com',
      'https://evil.com/x',
      '/\\evil.com',
      '\\\\evil',
      'evil.com',
      '',
      '/\t/evil.com',
      'javascript:alert(1)',
    ]) {
      expect(safeFromPath(bad)).toBeNull();
    }
    expect(safeFromPath(null)).toBeNull();
  });
  it('never returns a protocol-relative path that resolving dot segments produced', () => {
    for (const tricky of [
      '/.//evil.example',
      '/x/..//evil.example/y',
      '/./\\evil.example',
      '/%2e//evil.example',
    ]) {
      const out = safeFromPath(tricky);
      if (out !== null) expect(isProtocolRelative(out), tricky).toBe(false);
    }
    expect(safeFromPath('/.//evil.example')).toBe('/evil.example');
  });
  it('collapses slashes and recognises protocol-relative locations', () => {
    expect(collapseSlashes('//a\\\\b///c')).toBe('/a/b/c');
    for (const l of ['//x', '/\\x', '\\\\x', ' //x', '/\t/x']) expect(isProtocolRelative(l), l).toBe(true);
    for (const l of ['/x', '/x//y', 'https://x', '']) expect(isProtocolRelative(l), l).toBe(false);
  });
});
