// Prints one 'suite: N passed, N failed' line per Vitest JSON report, then the total.
// Exits non-zero when a report is missing or ran no test.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

let passed = 0;
let failed = 0;
let bad = false;
for (const file of process.argv.slice(2)) {
  const suite = path.basename(file, '.json');
  if (!existsSync(file)) {
    console.log(`${suite}: 0 passed, 1 failed`);
    failed += 1;
    bad = true;
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const p = r.numPassedTests ?? 0;
  const f = (r.numFailedTests ?? 0) || (r.numFailedTestSuites ?? 0);
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(`${suite}: ${p} passed, ${f} failed${skipped ? `, ${skipped} skipped` : ''}`);
  passed += p;
  failed += f;
  if (p === 0 || !r.success) bad = true;
}
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(bad || failed ? 1 : 0);
