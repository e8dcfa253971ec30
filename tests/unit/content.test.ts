import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('content/', () => {
  it('every tool page and legal text has all ten languages in the documented structure', () => {
    const run = spawnSync(process.execPath, ['scripts/check-content.mjs'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('12 tool pages checked');
    expect(run.status).toBe(0);
  });
});
