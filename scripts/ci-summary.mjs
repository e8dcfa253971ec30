// Prints one 'suite: N passed, N failed' line per Vitest JSON report (with the failed tests' names,
// since only the end of a CI log may be kept), then the total.
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
  for (const file of r.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name ?? '');
    const names = (file.assertionResults ?? []).filter((a) => a.status === 'failed').map((a) => a.fullName);
    if (names.length === 0 && file.status === 'failed') names.push(`(file) ${(file.message ?? '').slice(0, 160)}`);
    for (const name of names.slice(0, 10)) console.log(`  failed: ${where} > ${name}`);
  }
  passed += p;
  failed += f;
  if (p === 0 || !r.success) bad = true;
}
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(bad || failed ? 1 : 0);
