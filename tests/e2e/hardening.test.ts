import { describe, expect, inject, it } from 'vitest';
import { DESKTOP_UA } from './browser';

// The outside probe's reproductions (issue 13), run against the production build.
const base = inject('baseUrl');
const browserHeaders = { 'user-agent': DESKTOP_UA };

describe('redirects stay on this origin', () => {
  it('never answers a Location (header or data redirect) that leaves the site', async () => {
    const paths = [
      '/en//evil.example/login',
      '/en//evil.example/x.png',
      '/en//evil.example/login.data',
      '/en/.//evil.example',
      '/de//evil.example/login',
      '//evil.example/login',
      '/de//affiliate',
    ];
    for (const path of paths) {
      for (const cookie of ['', 'i18n_redirected=en', 'i18n_redirected=de']) {
        const res = await fetch(base + path, {
          redirect: 'manual',
          headers: { ...browserHeaders, cookie },
        });
        const location = res.headers.get('location');
        if (location) {
          expect(new URL(location, base).origin, `${path} [${cookie}] → ${location}`).toBe(base);
        }
        if (path.endsWith('.data')) {
          // Single-fetch redirects travel inside the body.
          expect(await res.text(), path).not.toContain('"//evil.example');
        }
      }
    }
  });
});
