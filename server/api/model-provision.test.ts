// A fresh server without a model: it downloads the configured one by itself (here from a local
// HTTP server standing in for the model repository); uploads wait, showing the download, and are
// transcribed once it is there. Without automatic download, users get a message with no command.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../app/locales/en.json';
import { testApp } from '../test/harness';
import { makeMedia } from '../test/media';
import { sha1Of, startModelServer, type ModelServer } from '../test/model-server';
import { testModelPath } from '../test/test-model';
import { tusUpload } from '../test/tus';
import { signedInUser } from '../test/users';
import { waitFor } from '../test/wait';

type Json = { code: number; message: string; message_key?: string; data: any };
const MEDIA_DIR = path.resolve('tmp/test-media');
let server: ModelServer;
let model: Buffer;
const dirs: string[] = [];

async function transcribe(h: Awaited<ReturnType<typeof testApp>>) {
  const u = await signedInUser(h.db);
  const file = makeMedia(MEDIA_DIR, 'wav', 4);
  const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
  const { id } = await tusUpload(fetcher, u.headers, readFileSync(file), 'tone.wav');
  const res = await h.app.request('/self-api/v1/transcripts', {
    method: 'POST',
    headers: { ...u.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ upload_id: id, detect_speech: false }),
  });
  const created = ((await res.json()) as Json).data;
  const get = async () =>
    (
      (await (
        await h.app.request(`/self-api/v1/transcripts/${created.id}`, { headers: u.headers })
      ).json()) as Json
    ).data;
  return { created, get };
}

beforeAll(async () => {
  model = readFileSync(await testModelPath());
  server = await startModelServer();
  server.files.set('ggml-base.bin', model);
});
afterAll(async () => {
  await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the model arrives by itself', () => {
  it('downloads the model at start; a job waits with the download shown, then runs by itself', async () => {
    const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'cs-provision-app-'));
    dirs.push(DATA_DIR);
    // The download stays in progress until the job has been seen waiting for it.
    server.paused = true;
    const h = await testApp(
      {},
      {
        DATA_DIR,
        WHISPER_MODEL_BASE_URL: server.baseUrl,
        WHISPER_MODEL_SHA1: sha1Of(model),
        WHISPER_MODEL_AUTO_DOWNLOAD: 'true',
        WHISPER_THREADS: '1',
      },
      { worker: true },
    );
    try {
      const { created, get } = await transcribe(h);
      expect(created.status).toBe('queued');
      const waiting: number[] = [];
      let t = await waitFor(
        async () => {
          const now = await get();
          if (now.status !== 'queued') return now;
          if (now.stage === 'engine') waiting.push(now.progress);
          if (waiting.length >= 3) server.paused = false;
          return undefined;
        },
        { ms: 60_000, what: 'the job to stop waiting for the model' },
      );
      server.paused = false;
      expect(waiting.length).toBeGreaterThan(0);
      expect(waiting).toEqual([...waiting].sort((a, b) => a - b));
      t = await waitFor(
        async () => {
          const now = await get();
          return now.status === 'processing' ? undefined : now;
        },
        { ms: 60_000, everyMs: 100, what: 'the transcription to end' },
      );
      expect(t.status).toBe('done');
      expect(t.segments.length).toBeGreaterThan(0);
      expect(readFileSync(path.join(DATA_DIR, 'models', 'ggml-base.bin')).equals(model)).toBe(true);
    } finally {
      server.paused = false;
      await h.close();
    }
  }, 120_000);

  it('without automatic download, the job fails with a message that names no command', async () => {
    const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'cs-provision-off-'));
    dirs.push(DATA_DIR);
    const h = await testApp({}, { DATA_DIR, WHISPER_MODEL_AUTO_DOWNLOAD: 'false' }, { worker: true });
    try {
      const { get } = await transcribe(h);
      const t = await waitFor(
        async () => {
          const now = await get();
          return now.status === 'queued' || now.status === 'processing' ? undefined : now;
        },
        { ms: 60_000, what: 'the job to end' },
      );
      expect(t).toMatchObject({
        status: 'failed',
        error: { code: 'model_missing', message: 'errors.media.model_missing' },
      });
      const text = en.errors.media.model_missing;
      expect(text).not.toMatch(/npm|WHISPER|model:download/);
    } finally {
      await h.close();
    }
  });
});
