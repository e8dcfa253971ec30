import type { Locale } from '../../../common/locales';

// Word (DOCX) export needs a paid plan (Starter and up, common/ranks.ts): a public text that
// offers it must say so in the same sentence, or a Free user is promised what the product refuses.

/** How each language names a paid plan (or the first plan that has DOCX). */
const PAID: Record<Locale, RegExp> = {
  en: /paid|Starter/i,
  de: /bezahlt|Starter/i,
  es: /pago|Starter/i,
  fr: /payant|Starter/i,
  ja: /有料|Starter/i,
  ko: /유료|Starter/i,
  pt: /pago|Starter/i,
  tw: /付費|Starter/i,
  vi: /trả phí|Starter/i,
  zh: /付费|Starter/i,
};

// Case-sensitive: the product name "Word", not the word "word".
const DOCX = /DOCX|\bWord\b/;
// A format's label alone ('Word (DOCX)') names it; it promises nothing.
const LABEL = /^Word\s*[(（]DOCX[)）]$/;
// A question ('Can I get it as a Word document?') is answered elsewhere on the page.
const QUESTION = /[?？]\s*$/;

/** True when `text` offers Word/DOCX export without saying it needs a paid plan. */
export function claimsDocxForFree(lang: Locale, text: string): boolean {
  const t = text.trim();
  if (!DOCX.test(t) || LABEL.test(t) || QUESTION.test(t)) return false;
  return !PAID[lang].test(t);
}

/** Every string under `value` (an object of texts) that claims DOCX for free, by its path. */
export function docxClaims(lang: Locale, value: unknown, at = ''): string[] {
  if (typeof value === 'string') return claimsDocxForFree(lang, value) ? [at] : [];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => docxClaims(lang, v, at ? `${at}.${k}` : k));
}
