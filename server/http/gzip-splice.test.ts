import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, gzipPage, plainPage, splicePage } from './gzip-splice';

const page = (nonce: string) =>
  `<!doctype html><html><head><script nonce="${nonce}">a()</script><style>${'p{color:red}'.repeat(200)}</style></head>` +
  `<body><p>Grüße — 日本語</p><script nonce="${nonce}"></script><script nonce="${nonce}">b()</script></body></html>`;

describe('gzip splicing', () => {
  it("makes a valid gzip of the page with each answer's nonce, from pieces compressed once", () => {
    const spliced = splicePage(page('old0000'), 'old0000');
    for (const fresh of ['Qm9uam91cg0123456789A==', 'x', '']) {
      expect(gunzipSync(gzipPage(spliced, fresh)).toString('utf8')).toBe(page(fresh));
      expect(plainPage(spliced, fresh).toString('utf8')).toBe(page(fresh));
    }
    expect(gzipPage(spliced, 'abc').length).toBeLessThan(Buffer.byteLength(page('abc')) / 4);
  });

  it('swaps exactly the nonce attribute the page was rendered with, never page text', () => {
    const html = '<script nonce="OLD+/=">a</script><p>nonce="OLD+/=x" nonce=&quot;OLD+/=&quot;</p>';
    const want = '<script nonce="NEW">a</script><p>nonce="OLD+/=x" nonce=&quot;OLD+/=&quot;</p>';
    const spliced = splicePage(html, 'OLD+/=');
    expect(plainPage(spliced, 'NEW').toString()).toBe(want);
    expect(gunzipSync(gzipPage(spliced, 'NEW')).toString()).toBe(want);
  });

  it('leaves a page without the nonce, or without any nonce, whole', () => {
    const html = '<p>nonce="other" is not ours</p>';
    for (const nonce of ['mine', '']) {
      const spliced = splicePage(html, nonce);
      expect(gunzipSync(gzipPage(spliced, 'fresh')).toString()).toBe(html);
      expect(plainPage(spliced, 'fresh').toString()).toBe(html);
    }
  });

  it('reads Accept-Encoding as HTTP means it', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, GZIP;q=0.2')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0, *')).toBe(false);
    expect(acceptsGzip('*;q=0')).toBe(false);
    expect(acceptsGzip('br, identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('')).toBe(false);
  });
});
