// The engine per language, for real: uploads in German, Japanese and Vietnamese run on Parakeet,
// SenseVoice and Whisper, through the real sherpa-onnx library on the stand-in models
// (server/test/fixtures/sherpa) and the real whisper.cpp on a random-weight model; the transcript
// records the model. Automatic detection hands over to the family of the language Whisper heard;
// a family's files are fetched on first need from a local HTTP server (checksummed) while the job
// waits; a bad file fails with a clear reason; cancel kills the child.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familyForLanguage } from '../../../common/engines';
import { createLogger } from '../../logger';
import { testApp } from '../../test/harness';
import { startModelServer, type ModelServer } from '../../test/model-server';
import { SHERPA_FIXTURES, standInDiarization } from '../../test/sherpa-fixtures';
import { hasEspeak, makeConversation, pcmToMedia, type Turn } from '../../test/speech';
import { testModelPath } from '../../test/test-model';
import { tusUpload } from '../../test/tus';
import { signedInUser } from '../../test/users';
import { waitFor } from '../../test/wait';
import { createModelProvisioner } from './models/provision';
import { createPerLanguageEngine } from './per-language';
import { createSherpaEngine, type SherpaEngine } from './sherpa/engine';
import { SHERPA_FAMILIES, sherpaPaths, type SherpaFamily } from './sherpa/families';
import { EngineError } from './types';
import { createWhisperEngine } from './whisper/engine';

type Json = { code: number; data: any };
const DIR = path.resolve('tmp/test-per-language');
const logger = createLogger('silent');
const diarization = { paths: standInDiarization, provisioners: [] };
const SPEECH: Record<string, Turn[]> = {
  de: [
    { voice: 'de', text: 'Guten Morgen, wir beginnen heute mit der Besprechung über das neue Haus.' },
    { voice: 'de', text: 'Die Pläne liegen auf dem Tisch, und wir fangen gleich damit an.' },
  ],
  ja: [
    { voice: 'ja', text: 'こんにちは、今日は会議を始めます。よろしくお願いします。' },
    { voice: 'ja', text: 'はい、わかりました。では始めましょう。' },
  ],
  vi: [
    { voice: 'vi', text: 'Xin chào, hôm nay chúng ta bắt đầu cuộc họp về ngôi nhà mới.' },
    { voice: 'vi', text: 'Vâng, tôi đã mang bản kế hoạch đến, chúng ta bắt đầu ngay.' },
  ],
};
const media: Record<string, string> = {};
let whisperModel: string;

const standIn = (family: SherpaFamily, dir = path.join(SHERPA_FIXTURES, family), provisioners = []) =>
  createSherpaEngine({
    spec: SHERPA_FAMILIES[family],
    paths: sherpaPaths(SHERPA_FAMILIES[family], dir),
    provisioners,
    diarization,
    threads: 1,
  });
const whisper = () =>
  createWhisperEngine({ modelPath: whisperModel, modelName: 'tiny', threads: 1, diarization });

beforeAll(async () => {
  if (!hasEspeak()) throw new Error('espeak-ng is needed (apt-get install espeak-ng)');
  whisperModel = await testModelPath('tiny', 'words');
  for (const [lang, turns] of Object.entries(SPEECH)) {
    const talk = makeConversation(path.join(DIR, lang), turns, 1);
    media[lang] = pcmToMedia(talk.pcmPath, path.join(DIR, `${lang}.wav`));
  }
}, 60_000);

async function upload(
  h: Awaited<ReturnType<typeof testApp>>,
  lang: string,
  options: Record<string, unknown>,
) {
  const u = await signedInUser(h.db);
  const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
  const { id: uploadId } = await tusUpload(fetcher, u.headers, readFileSync(media[lang]!), `${lang}.wav`);
  const res = await h.app.request('/self-api/v1/transcripts', {
    method: 'POST',
    headers: { ...u.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ upload_id: uploadId, ...options }),
  });
  const body = (await res.json()) as Json;
  return { res, body, u };
}

async function finished(h: Awaited<ReturnType<typeof testApp>>, id: string, headers: Record<string, string>) {
  return waitFor(
    async () => {
      const got = (await (await h.app.request(`/self-api/v1/transcripts/${id}`, { headers })).json()) as Json;
      return got.data.status === 'done' || got.data.status === 'failed' ? got.data : undefined;
    },
    { ms: 120_000, everyMs: 200, what: 'the transcript to end' },
  );
}

describe('uploads on the engine of their language', () => {
  let h: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    const engine = createPerLanguageEngine({
      whisper: whisper(),
      whisperModel: 'whisper-tiny',
      families: { parakeet: standIn('parakeet'), 'sense-voice': standIn('sense-voice') },
      logger,
    });
    h = await testApp({}, { DATA_DIR: path.join(DIR, 'data') }, { engine, worker: true });
  });
  afterAll(async () => h?.close());

  it.each([
    ['de', 'parakeet-tdt-0.6b-v3-int8'],
    ['ja', 'sense-voice-small-int8'],
    ['vi', 'whisper-tiny'],
  ])(
    '%s runs on %s, with timed words and speakers',
    async (lang, model) => {
      const { body, u } = await upload(h, lang, { language: lang, detect_speakers: true });
      const t = await finished(h, body.data.id, u.headers);
      expect(t.status).toBe('done');
      expect(t.engine).toBe('auto');
      expect(t.model).toBe(model);
      expect(t.detected_language).toBe(lang);
      expect(t.segments.length).toBeGreaterThan(0);
      if (model !== 'whisper-tiny') {
        // Token timestamps become word timings, inside the segment, in order.
        for (const s of t.segments) {
          expect(s.words.length).toBeGreaterThan(0);
          for (const w of s.words) expect(w.start >= s.start - 1e-6 && w.end <= s.end + 1e-6).toBe(true);
        }
        // Times are on the original timeline: the audio starts with 1 s of silence, and speech
        // detection pads a region by a few hundred milliseconds at most.
        expect(t.segments[0].start).toBeGreaterThan(0.5);
      }
      expect(t.speakers.length).toBeGreaterThan(0);
    },
    180_000,
  );

  it('honours an explicit choice, and refuses one that cannot do the run', async () => {
    const { body, u } = await upload(h, 'de', { language: 'de', engine: 'whisper' });
    expect((await finished(h, body.data.id, u.headers)).model).toBe('whisper-tiny');
    const wrong = await upload(h, 'ja', { language: 'ja', engine: 'parakeet' });
    expect(wrong.res.status).toBe(422);
    expect(JSON.stringify(wrong.body)).toContain('validation.engineLanguage');
    const translate = await upload(h, 'ja', { language: 'ja', engine: 'sense-voice', translate: true });
    expect(translate.res.status).toBe(422);
    expect(JSON.stringify(translate.body)).toContain('validation.engineTranslate');
  }, 180_000);

  it('with automatic detection runs the family of the language Whisper heard', async () => {
    const { body, u } = await upload(h, 'de', { language: 'auto' });
    const t = await finished(h, body.data.id, u.headers);
    expect(t.status).toBe('done');
    const heard = t.detected_language as string;
    const family = familyForLanguage(heard, ['whisper', 'parakeet', 'sense-voice']);
    expect(t.model).toBe(
      {
        whisper: 'whisper-tiny',
        parakeet: 'parakeet-tdt-0.6b-v3-int8',
        'sense-voice': 'sense-voice-small-int8',
      }[family],
    );
  }, 180_000);
});

describe('a family fetched on first need', () => {
  let server: ModelServer;
  let h: Awaited<ReturnType<typeof testApp>> | undefined;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  it('downloads its files (checksummed) while the German job waits, then runs it', async () => {
    const spec = SHERPA_FAMILIES.parakeet;
    const dir = path.join(DIR, 'downloaded');
    rmSync(dir, { recursive: true, force: true });
    const paths = sherpaPaths(spec, dir);
    const provisioners = spec.files.map((f) => {
      const body = readFileSync(path.join(SHERPA_FIXTURES, 'parakeet', f.file));
      server.files.set(f.file, body);
      return createModelProvisioner({
        name: `parakeet-${f.role}`,
        path: paths[f.role]!,
        url: `${server.baseUrl}/${f.file}`,
        sha256: createHash('sha256').update(body).digest('hex'),
        sha1: null,
        autoDownload: true,
        logger,
      });
    });
    server.delayMs = 20;
    const parakeet = createSherpaEngine({ spec, paths, provisioners, diarization, threads: 1 });
    const engine = createPerLanguageEngine({
      whisper: whisper(),
      whisperModel: 'whisper-tiny',
      families: { parakeet },
      logger,
    });
    h = await testApp({}, { DATA_DIR: path.join(DIR, 'data-dl') }, { engine, worker: true });
    const { body, u } = await upload(h, 'de', { language: 'de' });
    const t = await finished(h, body.data.id, u.headers);
    expect(t.status).toBe('done');
    expect(t.model).toBe('parakeet-tdt-0.6b-v3-int8');
    expect(server.requests.map((r) => r.path).sort()).toEqual(
      spec.files.map((f) => `/models/${f.file}`).sort(),
    );
    expect(parakeet.hasModels()).toBe(true);
  }, 180_000);
});

describe('a family whose files cannot be fetched', () => {
  let server: ModelServer;
  let h: Awaited<ReturnType<typeof testApp>> | undefined;
  beforeAll(async () => {
    server = await startModelServer();
    const spec = SHERPA_FAMILIES.parakeet;
    const paths = sherpaPaths(spec, path.join(DIR, 'never'));
    // The mirror has none of the files: every attempt fails (404).
    const provisioners = spec.files.map((f) =>
      createModelProvisioner({
        name: `parakeet-${f.role}`,
        path: paths[f.role]!,
        url: `${server.baseUrl}/${f.file}`,
        sha256: null,
        sha1: null,
        autoDownload: true,
        retryDelaysMs: [50],
        jobsWaitAttempts: 1,
        logger,
      }),
    );
    const engine = createPerLanguageEngine({
      whisper: whisper(),
      whisperModel: 'whisper-tiny',
      families: { parakeet: createSherpaEngine({ spec, paths, provisioners, diarization, threads: 1 }) },
      logger,
    });
    h = await testApp({}, { DATA_DIR: path.join(DIR, 'data-404') }, { engine, worker: true });
  });
  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  it('leaves a language-picked job to Whisper, and fails an explicit choice with the reason', async () => {
    const auto = await upload(h!, 'de', { language: 'de' });
    const done = await finished(h!, auto.body.data.id, auto.u.headers);
    expect(done).toMatchObject({ status: 'done', model: 'whisper-tiny' });
    const chosen = await upload(h!, 'de', { language: 'de', engine: 'parakeet' });
    const failed = await finished(h!, chosen.body.data.id, chosen.u.headers);
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe('model_unavailable');
  }, 180_000);
});

describe('recognizer files that cannot be used, and cancel', () => {
  const talkPcm = () => path.join(DIR, 'de', 'conversation.pcm');
  const copyFamily = (name: string) => {
    const dir = path.join(DIR, name);
    mkdirSync(dir, { recursive: true });
    for (const f of SHERPA_FAMILIES.parakeet.files)
      copyFileSync(path.join(SHERPA_FIXTURES, 'parakeet', f.file), path.join(dir, f.file));
    return dir;
  };
  const run = (engine: SherpaEngine, signal?: AbortSignal, onSegment?: () => void) =>
    engine
      .transcribe({ pcmPath: talkPcm(), durationSec: 10 }, { language: 'de', signal, onSegment })
      .catch((e: unknown) => e);

  it('a missing file: model_missing', async () => {
    const dir = copyFamily('pk-missing');
    rmSync(path.join(dir, 'joiner.int8.onnx'));
    const err = await run(standIn('parakeet', dir));
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({
      code: 'model_missing',
      message: expect.stringContaining('joiner.int8.onnx'),
    });
  });

  it('a model of the wrong kind: model_invalid, with what sherpa-onnx missed', async () => {
    const dir = copyFamily('pk-wrong');
    // SenseVoice's model where Parakeet's encoder should be: its metadata lacks the transducer's keys.
    copyFileSync(
      path.join(SHERPA_FIXTURES, 'sense-voice', 'model.int8.onnx'),
      path.join(dir, 'encoder.int8.onnx'),
    );
    const err = await run(standIn('parakeet', dir));
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ code: 'model_invalid' });
    expect((err as Error).message).toMatch(
      /the Parakeet model cannot be loaded.*does not exist in the metadata/,
    );
  }, 60_000);

  it('cancel kills the child', async () => {
    let pid = 0;
    const engine = createSherpaEngine({
      spec: SHERPA_FAMILIES.parakeet,
      paths: sherpaPaths(SHERPA_FAMILIES.parakeet, path.join(SHERPA_FIXTURES, 'parakeet')),
      provisioners: [],
      threads: 1,
      onSpawn: (p) => (pid = p),
    });
    const stop = new AbortController();
    const err = await run(engine, stop.signal, () => stop.abort());
    expect(err).toMatchObject({ code: 'canceled' });
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid, 0)).toThrow();
  }, 60_000);
});
