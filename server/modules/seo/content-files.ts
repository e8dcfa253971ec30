import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LEGAL_DOCS, legalDocSchema, type LegalDoc, type LegalDocJson } from '../../../common/legal-content';
import { LOCALES, type Locale } from '../../../common/locales';
import { toolFileSchema, type ToolFile } from '../../../common/tool-content';
import { PROJECT_ROOT } from '../../paths';
import { docxClaims } from './plan-claims';

/** The repository's content/ folder (tool pages and legal texts). */
export const CONTENT_DIR = path.join(PROJECT_ROOT, 'content');

export class ContentError extends Error {}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ContentError(`${file}: ${(err as Error).message}`);
  }
}

/** Reads and validates tool page files: one file, or every .json in a folder. */
export function readToolFiles(target: string): ToolFile[] {
  const files = target.endsWith('.json')
    ? [target]
    : readdirSync(target)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => path.join(target, f));
  return files.map((file) => {
    const parsed = toolFileSchema.safeParse(readJson(file));
    if (!parsed.success) {
      const first = parsed.error.issues[0]!;
      throw new ContentError(`${file}: ${first.path.join('.')}: ${first.message}`);
    }
    return parsed.data;
  });
}

/** Every problem in content/: structure, all ten languages, related pages that exist, plan claims. */
export function checkContent(dir = CONTENT_DIR): string[] {
  const problems: string[] = [];
  let tools: ToolFile[] = [];
  try {
    tools = readToolFiles(path.join(dir, 'tools'));
  } catch (err) {
    problems.push((err as Error).message);
  }
  const slugs = new Set(tools.map((t) => t.slug));
  for (const t of tools) {
    const missing = LOCALES.filter((l) => !t.locales[l]);
    if (missing.length) problems.push(`tools/${t.slug}: missing ${missing.join(', ')}`);
    for (const r of t.related) if (!slugs.has(r)) problems.push(`tools/${t.slug}: related ${r} has no page`);
    for (const lang of LOCALES) {
      if (lang !== 'en' && t.locales[lang] && t.locales[lang]!.h1 === t.locales.en!.h1) {
        problems.push(`tools/${t.slug}: ${lang} h1 is the English one`);
      }
      for (const at of docxClaims(lang, t.locales[lang])) {
        problems.push(`tools/${t.slug}: ${lang} ${at} offers Word/DOCX without saying it needs a paid plan`);
      }
    }
  }
  for (const doc of LEGAL_DOCS) {
    const en = readLegal(dir, doc, 'en', problems);
    for (const lang of LOCALES) {
      const d = lang === 'en' ? en : readLegal(dir, doc, lang, problems);
      if (d && en && d.sections.length !== en.sections.length) {
        problems.push(`legal/${doc}/${lang}: section count differs from en`);
      }
    }
  }
  return problems;
}

function readLegal(dir: string, doc: LegalDoc, lang: Locale, problems: string[]): LegalDocJson | null {
  const file = path.join(dir, 'legal', doc, `${lang}.json`);
  if (!existsSync(file)) {
    problems.push(`legal/${doc}/${lang}: missing`);
    return null;
  }
  const parsed = legalDocSchema.safeParse(readJson(file));
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    problems.push(`legal/${doc}/${lang}: ${first.path.join('.')}: ${first.message}`);
    return null;
  }
  return parsed.data;
}

const legalCache = new Map<string, LegalDocJson | null>();

/** One legal text in one language (read once, then from memory); null if the file is missing. */
export function legalText(doc: LegalDoc, lang: Locale): LegalDocJson | null {
  const key = `${doc}/${lang}`;
  if (!legalCache.has(key)) {
    const file = path.join(CONTENT_DIR, 'legal', doc, `${lang}.json`);
    legalCache.set(key, existsSync(file) ? legalDocSchema.parse(readJson(file)) : null);
  }
  return legalCache.get(key)!;
}
