import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Decision 0017: a form submitted before hydration must never put its fields in the address.
// Every form states its method as its first attribute (decision 0017); GET only for forms
// that hold nothing personal (the share page's download buttons).
const GET_ALLOWED = new Set(['app/routes/transcript/share.tsx']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return p.endsWith('.tsx') ? [p] : [];
  });
}

describe('forms in app/', () => {
  it('all say method="post" (or GET where nothing personal is sent)', () => {
    const found: string[] = [];
    for (const file of sources('app')) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/<form\b\s*([a-zA-Z]+)(?:="([^"]*)")?/g)) {
        const where = `${file}:${text.slice(0, m.index).split('\n').length}`;
        found.push(where);
        expect(m[1], where).toBe('method');
        if (m[2] !== 'post') {
          expect(m[2], where).toBe('get');
          expect(GET_ALLOWED.has(file), where).toBe(true);
        }
      }
    }
    expect(found.length).toBeGreaterThan(8);
  });
});
