import { count } from 'drizzle-orm';
import { LOCALES, isLocale, type Locale } from '../../../common/locales';
import {
  TOOL_GROUPS,
  toolSlugOf,
  type FooterToolsJson,
  type ToolFile,
  type ToolPageJson,
} from '../../../common/tool-content';
import type { Db } from '../../db/client';
import { seoPages, type SeoPage } from '../../db/schema';
import type { Logger } from '../../logger';
import { CONTENT_DIR, readToolFiles } from './content-files';
import path from 'node:path';

/** How long another process's import may take to show here. */
const CACHE_MS = 60_000;

export interface ToolCatalogue {
  page(lang: Locale, slug: string): ToolPageJson | null;
  /** Every page as (slug, languages), for the sitemap. */
  all(): { slug: string; languages: Locale[] }[];
  footer(lang: Locale): FooterToolsJson;
}

/**
 * The tool pages, read from the database into memory (a hundred-odd rows) and kept for a minute,
 * so every lookup — check-page, info, footer, sitemap — is a map read.
 */
export function createToolPages(db: Db) {
  let cached: { at: number; signature: string; catalogue: ToolCatalogue } | null = null;

  /** Keeps its identity while the rows are unchanged: the page cache watches it. */
  async function catalogue(): Promise<ToolCatalogue> {
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.catalogue;
    const rows = await db.select().from(seoPages).orderBy(seoPages.slug, seoPages.lang);
    const signature = JSON.stringify(rows);
    cached =
      cached?.signature === signature
        ? { ...cached, at: Date.now() }
        : { at: Date.now(), signature, catalogue: buildCatalogue(rows) };
    return cached.catalogue;
  }

  return {
    catalogue,
    invalidate() {
      if (cached) cached.at = 0;
    },
    /** GET check-page: 1 when the page exists in that language, else 0. */
    async count(lang: string, pathOrSlug: string): Promise<number> {
      const slug = toolSlugOf(pathOrSlug);
      if (!slug || !isLocale(lang)) return 0;
      return (await catalogue()).page(lang, slug) ? 1 : 0;
    },
  };
}

export type ToolPages = ReturnType<typeof createToolPages>;

function buildCatalogue(rows: SeoPage[]): ToolCatalogue {
  const byKey = new Map<string, SeoPage>();
  const languages = new Map<string, Locale[]>();
  for (const row of rows) {
    if (!isLocale(row.lang)) continue;
    byKey.set(`${row.lang}:${row.slug}`, row);
    languages.set(row.slug, [...(languages.get(row.slug) ?? []), row.lang]);
  }
  const order = (langs: Locale[]) => LOCALES.filter((l) => langs.includes(l));
  return {
    page(lang, slug) {
      const row = byKey.get(`${lang}:${slug}`);
      if (!row) return null;
      return {
        ...row.content,
        slug,
        lang,
        group: row.group as ToolPageJson['group'],
        related: row.related
          .map((s) => byKey.get(`${lang}:${s}`))
          .filter((r): r is SeoPage => !!r)
          .map((r) => ({ slug: r.slug, nav: r.content.nav })),
        languages: order(languages.get(slug) ?? []),
        updated_at: row.updatedAt.toISOString(),
      };
    },
    all() {
      return [...languages].map(([slug, langs]) => ({ slug, languages: order(langs) }));
    },
    footer(lang) {
      const groups = TOOL_GROUPS.map((group) => ({
        group,
        tools: rows
          .filter((r) => r.lang === lang && r.group === group)
          .map((r) => ({ slug: r.slug, nav: r.content.nav })),
      }));
      return { groups: groups.filter((g) => g.tools.length > 0) };
    },
  };
}

/** Inserts or replaces pages (every language in each file). Returns the number of rows written. */
export async function importToolPages(db: Db, files: ToolFile[], now: Date): Promise<number> {
  let written = 0;
  for (const file of files) {
    for (const [lang, content] of Object.entries(file.locales)) {
      await db
        .insert(seoPages)
        .values({ slug: file.slug, lang, group: file.group, related: file.related, content, updatedAt: now })
        .onConflictDoUpdate({
          target: [seoPages.slug, seoPages.lang],
          set: { group: file.group, related: file.related, content, updatedAt: now },
        });
      written += 1;
    }
  }
  return written;
}

/** The seed step: on a database without tool pages, load content/tools. */
export async function seedToolPages(db: Db, logger: Logger, now: Date): Promise<number> {
  const [row] = await db.select({ n: count() }).from(seoPages);
  if ((row?.n ?? 0) > 0) return 0;
  const written = await importToolPages(db, readToolFiles(path.join(CONTENT_DIR, 'tools')), now);
  logger.info({ rows: written }, 'tool pages seeded from content/tools');
  return written;
}
