import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_DIR, checkContent, readToolFiles } from '../../server/modules/seo/content-files';

describe('content/', () => {
  it('has every tool page and legal text in all ten languages, in the documented structure', () => {
    expect(checkContent()).toEqual([]);
    expect(readToolFiles(path.join(CONTENT_DIR, 'tools')).length).toBeGreaterThanOrEqual(12);
  });
});
