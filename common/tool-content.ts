import { z } from 'zod';
import { LOCALES, type Locale } from './locales';

// The /tools landing pages (content/tools/<slug>.json, content/README.md): one file per page
// with its text in all ten languages. The seed step and `npm run admin -- import-tools` read it.

export const TOOL_GROUPS = ['video', 'audio', 'subtitles', 'use-cases'] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];
export const TOOL_SLUG_RE = /^[a-z0-9-]+(\/[a-z0-9-]+)*$/;

const text = z.string().trim().min(1);
const chars = (min: number, max: number) =>
  text.refine((s) => [...s].length >= min && [...s].length <= max, `must be ${min}-${max} characters`);

export const toolLocaleSchema = z.object({
  nav: chars(1, 30),
  title: chars(8, 70),
  description: chars(40, 170),
  h1: text,
  intro: z.array(text).min(1).max(3),
  steps: z.array(z.object({ title: text, text })).length(3),
  features: z
    .array(z.object({ title: text, text }))
    .min(4)
    .max(6),
  faq: z
    .array(z.object({ q: text, a: text }))
    .min(4)
    .max(6),
  cta: text,
});
export type ToolLocale = z.infer<typeof toolLocaleSchema>;

export const toolFileSchema = z
  .object({
    slug: z.string().regex(TOOL_SLUG_RE),
    group: z.enum(TOOL_GROUPS),
    related: z.array(z.string().regex(TOOL_SLUG_RE)).min(3).max(4),
    locales: z.record(z.enum(LOCALES), toolLocaleSchema),
  })
  .superRefine((file, ctx) => {
    const en = file.locales.en;
    if (!en) ctx.addIssue({ code: 'custom', message: 'the en locale is required', path: ['locales', 'en'] });
    if (file.related.includes(file.slug))
      ctx.addIssue({ code: 'custom', message: 'relates to itself', path: ['related'] });
    for (const [lang, l] of Object.entries(file.locales) as [Locale, ToolLocale][]) {
      if (!en || lang === 'en') continue;
      for (const k of ['intro', 'steps', 'features', 'faq'] as const) {
        if (l[k].length !== en[k].length) {
          ctx.addIssue({ code: 'custom', message: `${k} count differs from en`, path: ['locales', lang, k] });
        }
      }
    }
  });
export type ToolFile = z.infer<typeof toolFileSchema>;

/** What GET /self-api/v1/seo-landing/info returns and /tools/{slug} renders. */
export interface ToolPageJson extends ToolLocale {
  slug: string;
  lang: Locale;
  group: ToolGroup;
  related: { slug: string; nav: string }[];
  /** Languages this page exists in (hreflang alternates). */
  languages: Locale[];
  updated_at: string;
}

export interface FooterToolsJson {
  groups: { group: ToolGroup; tools: { slug: string; nav: string }[] }[];
}

/** The slug of a /tools path: '/de/tools/a/b/' → 'a/b'; null when it is not under /tools. */
export function toolSlugOf(path: string): string | null {
  const m = /^(?:\/[a-z]{2})?\/tools\/(.+?)\/?$/.exec(path.split(/[?#]/)[0] ?? '');
  const slug = m?.[1]?.toLowerCase() ?? (TOOL_SLUG_RE.test(path) ? path : null);
  return slug && TOOL_SLUG_RE.test(slug) ? slug : null;
}
