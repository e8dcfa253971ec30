import type { Page } from 'playwright-core';

/**
 * Collects what a person with the console open would see go wrong: uncaught errors (hydration
 * mismatches among them), console errors and failed requests. A page's own document may answer
 * with an error status on purpose (a 404 page), which the browser logs; pass its URL to allow it.
 */
export function watchConsole(page: Page, opts: { documentStatusOk?: boolean } = {}) {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (opts.documentStatusOk && /^Failed to load resource: .*status of 4\d\d/.test(m.text())) return;
    problems.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() < 400) return;
    if (opts.documentStatusOk && r.request().resourceType() === 'document') return;
    problems.push(`http ${r.status()}: ${r.url()}`);
  });
  return problems;
}
