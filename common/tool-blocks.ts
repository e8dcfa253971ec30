// The blocks a /tools landing page is made of, by what they are. The block gallery shows each one
// alone at /tools/components/<slug>; those URL slugs are fixed paths (docs/product.md#pages) (short codes that name
// nothing a reader would guess), so they appear here once and nowhere else in the code.
export const BLOCK_SLUGS = {
  hero: 'gnsy',
  steps: 'bzjs',
  features: 'gnjs',
  faq: 'wd',
  moreTools: 'gdgj',
} as const;

export type BlockKind = keyof typeof BLOCK_SLUGS;
export const BLOCK_KINDS = Object.keys(BLOCK_SLUGS) as BlockKind[];
