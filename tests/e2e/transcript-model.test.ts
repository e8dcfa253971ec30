import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { modelLabel } from '../../common/engines';
import { makeMedia } from '../../server/test/media';
import { tusUpload } from '../../server/test/tus';
import { SLOW_PROCESS_TIMEOUT_MS, waitFor } from '../../server/test/wait';
import { launch } from './browser';
import { importCaptions, TALK_SRT } from './imports';
import { apiSignup, signedInContext } from './session';

const base = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('the transcript page', () => {
  it(
    'says which model made the transcript, in the page language',
    async () => {
      const headers = await apiSignup(base, dataDir, `model-${Date.now()}@example.com`);
      const media = makeMedia(path.resolve('tmp/test-media'), 'mp4', 3);
      const fetcher = (p: string, init: RequestInit) => fetch(`${base}${p}`, init);
      const { id: uploadId } = await tusUpload(fetcher, headers, readFileSync(media), 'model.mp4');
      const made = await fetch(`${base}/self-api/v1/transcripts`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ upload_id: uploadId }),
      });
      const id = ((await made.json()) as { data: { id: string } }).data.id;
      type T = { status: string; model: string | null };
      const done = await waitFor(
        async () => {
          const res = await fetch(`${base}/self-api/v1/transcripts/${id}`, { headers });
          const t = ((await res.json()) as { data: T }).data;
          if (t.status === 'failed') throw new Error('the transcription failed');
          return t.status === 'done' ? t : null;
        },
        { ms: SLOW_PROCESS_TIMEOUT_MS, everyMs: 500, what: 'the transcript to be done' },
      );
      expect(done.model).toBeTruthy();

      const ctx = await signedInContext(browser, base, headers.cookie!);
      const page = await ctx.newPage();
      await page.goto(`${base}/transcript/${id}`, { waitUntil: 'networkidle' });
      const shown = page.getByTestId('transcript-model');
      expect(await shown.innerText()).toBe(`Model: ${modelLabel(done.model!)}`);
      expect(await shown.getAttribute('title')).toBe(
        'The speech recognition model that made this transcript',
      );
      // The same in German (a visitor who chose German: the remembered language says so).
      const german = await signedInContext(browser, base, headers.cookie!);
      await german.addCookies([{ name: 'i18n_redirected', value: 'de', url: base }]);
      const dePage = await german.newPage();
      await dePage.goto(`${base}/de/transcript/${id}`, { waitUntil: 'networkidle' });
      expect(await dePage.getByTestId('transcript-model').innerText()).toBe(
        `Modell: ${modelLabel(done.model!)}`,
      );
      await german.close();
      // An imported caption file was made by no model: nothing is claimed.
      const imported = await importCaptions(base, headers, { text: TALK_SRT, fileName: 'talk.srt' });
      await page.goto(`${base}/transcript/${imported}`, { waitUntil: 'networkidle' });
      await page.getByText('First line of the talk').waitFor();
      expect(await page.getByTestId('transcript-model').count()).toBe(0);
      await ctx.close();
    },
    SLOW_PROCESS_TIMEOUT_MS + 60_000,
  );
});
