import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { makeMedia } from '../../server/test/media';
import { apiSignup } from './session';

const base = inject('baseUrl');
const dataDir = inject('dataDir');
const run = promisify(execFile);

// The README's API example, run as written: only an API key, tus upload → start → poll → export.
describe("the README's API example", () => {
  it('transcribes and exports a file with only an API key', async () => {
    const session = await apiSignup(base, dataDir, `script-${Date.now()}@example.com`);
    const made = await fetch(`${base}/self-api/v1/api-keys`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'README example' }),
    });
    const key = ((await made.json()) as { data: { key: string } }).data.key;
    const work = mkdtempSync(path.join(os.tmpdir(), 'cs-api-example-'));
    const media = path.join(work, 'talk.mp4');
    copyFileSync(makeMedia(path.resolve('tmp/test-media'), 'mp4', 2), media);

    const { stdout } = await run(process.execPath, [path.resolve('scripts/api-example.mjs'), media, 'srt'], {
      cwd: work,
      env: { ...process.env, CLIPSCRIBE_URL: base, CLIPSCRIBE_KEY: key },
      timeout: 240_000,
    });
    expect(stdout).toContain('saved talk.srt');
    expect(stdout).toMatch(/done 100%/);
    // The test media is a tone (no speech, so no captions): the file is the export's, byte for byte.
    const id = /transcript ([0-9a-f-]{36})/.exec(stdout)![1]!;
    const direct = await fetch(`${base}/self-api/v1/transcripts/${id}/export?format=srt`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(direct.status).toBe(200);
    expect(readFileSync(path.join(work, 'talk.srt'))).toEqual(Buffer.from(await direct.arrayBuffer()));
  }, 300_000);
});
