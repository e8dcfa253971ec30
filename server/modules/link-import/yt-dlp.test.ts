import { copyFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcripts } from '../../db/schema';
import { testApp } from '../../test/harness';
import { startLinkServer } from '../../test/link-server';
import { makeMedia } from '../../test/media';
import { testModelPath } from '../../test/test-model';
import { signedInUser } from '../../test/users';
import { waitFor } from '../../test/wait';
import { LinkError } from './link-error';
import { detectYtDlp, downloadWithYtDlp, type YtDlp } from './yt-dlp';

// yt-dlp cannot be installed here: a small script that speaks its command line for the options
// we use stands in for it (server/test/fixtures/fake-yt-dlp.mjs), found on PATH like the real one.
const binDir = mkdtempSync(path.join(os.tmpdir(), 'fake-yt-dlp-'));
const fake = path.join(binDir, 'yt-dlp');
copyFileSync(path.resolve('server/test/fixtures/fake-yt-dlp.mjs'), fake);
chmodSync(fake, 0o755);

let site: Awaited<ReturnType<typeof startLinkServer>>;
let clip: Buffer;
beforeAll(async () => {
  clip = readFileSync(makeMedia(path.resolve('tmp/test-media'), 'mp3', 3));
  site = await startLinkServer(clip, { pieces: 4 });
});
afterAll(async () => {
  await site?.close();
  rmSync(binDir, { recursive: true, force: true });
});

function withPath<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = `${dir}${path.delimiter}${saved}`;
  return fn().finally(() => (process.env.PATH = saved));
}

describe('finding yt-dlp', () => {
  it('finds it on PATH and reads its version', async () => {
    expect(await withPath(binDir, () => detectYtDlp())).toEqual({ path: fake, version: '2025.10.22' });
  });

  it('finds it where YT_DLP_PATH says, and nothing when it is absent or does not run', async () => {
    expect(await detectYtDlp(fake)).toEqual({ path: fake, version: '2025.10.22' });
    expect(await detectYtDlp('/nonexistent/yt-dlp')).toBeNull();
    const saved = process.env.PATH;
    process.env.PATH = path.join(binDir, 'empty');
    try {
      expect(await detectYtDlp()).toBeNull();
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe('downloading a page with yt-dlp', () => {
  const bin: YtDlp = { path: fake, version: 'test' };
  const run = (page: string, maxBytes = 10 * 1024 * 1024, maxDurationSec = 3600) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'yt-dlp-run-'));
    const progress: [number, number | null][] = [];
    const result = downloadWithYtDlp(bin, `${site.base}${page}`, {
      dir,
      maxBytes,
      maxDurationSec,
      timeoutMs: 20_000,
      signal: new AbortController().signal,
      onProgress: (b, t) => progress.push([b, t]),
    });
    return { dir, progress, result };
  };

  it('writes the audio into its directory, with the title and progress it reports', async () => {
    const { dir, progress, result } = run('/watch');
    const got = await result;
    expect(got.title).toBe('Weekly podcast');
    expect(path.dirname(got.file)).toBe(dir);
    expect(readFileSync(got.file).equals(clip)).toBe(true);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toEqual([clip.length, clip.length]);
    expect(readdirSync(dir)).toEqual(['media.mp3']);
  });

  it('says too large and too long in our words, and when a page has nothing to download', async () => {
    await expect(run('/watch', 1000).result).rejects.toMatchObject({ code: 'link_too_large' });
    await expect(run('/watch-long').result).rejects.toMatchObject({ code: 'link_too_long' });
    const none = run('/page.html').result;
    await expect(none).rejects.toBeInstanceOf(LinkError);
    await expect(none).rejects.toMatchObject({ code: 'link_page_failed' });
  });
});

describe('a page link through the app, with yt-dlp on the server', () => {
  let h: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    const model = await testModelPath();
    mkdirSync(path.join(binDir, 'empty'), { recursive: true });
    h = await withPath(binDir, () =>
      testApp(
        {},
        {
          DATA_DIR: path.resolve('tmp/test-data-yt-dlp'),
          WHISPER_MODEL: model,
          WHISPER_THREADS: '1',
          ALLOW_PRIVATE_URLS: '127.0.0.1',
        },
        { worker: true },
      ),
    );
  }, 60_000);
  afterAll(async () => h?.close());

  it('goes to yt-dlp for a web page, named after its title, then is transcribed', async () => {
    expect(h.deps.services.linkImport.ytDlp).toMatchObject({ path: fake });
    const u = await signedInUser(h.db);
    const res = await h.app.request('/self-api/v1/transcripts/from-link', {
      method: 'POST',
      headers: { ...u.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.base}/watch`, detect_speech: false }),
    });
    expect(res.status).toBe(202);
    const { data } = (await res.json()) as { data: { id: string } };
    const row = await waitFor(
      async () => {
        const [r] = await h.db.select().from(transcripts).where(eq(transcripts.id, data.id));
        return r && ['done', 'failed'].includes(r.status) ? r : undefined;
      },
      { ms: 90_000, what: 'the transcript to finish' },
    );
    expect(row).toMatchObject({
      status: 'done',
      name: 'Weekly podcast',
      mediaName: 'Weekly podcast.mp3',
      mediaType: 'audio/mpeg',
      mediaSize: clip.length,
    });
  }, 120_000);

  it('still refuses a page on a private address before yt-dlp sees it', async () => {
    const u = await signedInUser(h.db);
    const res = await h.app.request('/self-api/v1/transcripts/from-link', {
      method: 'POST',
      headers: { ...u.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.2/watch' }),
    });
    expect(res.status).toBe(422);
  });
});
