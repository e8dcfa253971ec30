import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../common/locales';
import { claimsDocxForFree, docxClaims } from '../../server/modules/seo/plan-claims';

describe('Word/DOCX claims (DOCX needs a paid plan)', () => {
  it('flags an offer of Word export that does not name a paid plan, in the page language', () => {
    expect(claimsDocxForFree('en', 'Edit it and export TXT, SRT or Word.')).toBe(true);
    expect(claimsDocxForFree('en', 'TXT and SRT on every plan; Word (DOCX) on paid plans.')).toBe(false);
    expect(claimsDocxForFree('de', 'Als TXT, SRT oder Word exportieren.')).toBe(true);
    expect(claimsDocxForFree('de', 'In bezahlten Tarifen auch als Word.')).toBe(false);
    expect(claimsDocxForFree('zh', '导出 TXT、SRT 或 Word。')).toBe(true);
    expect(claimsDocxForFree('zh', '付费套餐还可下载 Word。')).toBe(false);
    // Not claims: a format's label, a question, the ordinary word "word".
    expect(claimsDocxForFree('en', 'Word (DOCX)')).toBe(false);
    expect(claimsDocxForFree('en', 'Can I get the transcript as a Word document?')).toBe(false);
    expect(claimsDocxForFree('en', 'Click a word to play from it.')).toBe(false);
  });

  it('no interface text in any language (landing, pricing, affiliate snippets) makes one', () => {
    for (const lang of LOCALES) {
      const messages: unknown = JSON.parse(readFileSync(path.resolve('app/locales', `${lang}.json`), 'utf8'));
      expect(docxClaims(lang, messages), lang).toEqual([]);
    }
  });
});
