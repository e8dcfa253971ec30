// Checks content/ (tool pages, legal texts) against the structure in content/README.md.
// Usage: node --import tsx scripts/check-content.ts
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { CONTENT_DIR, checkContent } from '../server/modules/seo/content-files';

const problems = checkContent();
const pages = readdirSync(path.join(CONTENT_DIR, 'tools')).filter((f) => f.endsWith('.json')).length;
console.log(`${pages} tool pages checked`);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exitCode = 1;
} else {
  console.log('content ok');
}
