import { z } from 'zod';

// Legal documents (content/legal/<doc>/<lang>.json, content/README.md).
export const LEGAL_DOCS = ['terms', 'privacy-policy', 'privacy-policy-backup'] as const;
export type LegalDoc = (typeof LEGAL_DOCS)[number];

const text = z.string().trim().min(1);
export const legalDocSchema = z.object({
  title: text,
  updated: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  intro: z.array(text),
  sections: z
    .array(z.object({ heading: text, paragraphs: z.array(text).optional(), items: z.array(text).optional() }))
    .min(5),
});
export type LegalDocJson = z.infer<typeof legalDocSchema>;
