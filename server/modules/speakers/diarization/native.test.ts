// Speaker diarization through the real sherpa-onnx library on the stand-in models
// (server/test/fixtures/sherpa): an upload of two voices becomes a transcript whose segments carry
// speakers, and a model that is missing, truncated or of the wrong kind fails the job with a clear
// reason. The stand-in segmentation model marks loud frames as speech and tells a low voice from a
// high one, so the turns here follow the audio; what real weights do is not tested (none here).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../../test/harness';
import { standInDiarization } from '../../../test/sherpa-fixtures';
import { hasEspeak, makeConversation, pcmToMedia, type SpeechFixture } from '../../../test/speech';
import { testModelPath } from '../../../test/test-model';
import { tusUpload } from '../../../test/tus';
import { signedInUser } from '../../../test/users';
import { waitFor } from '../../../test/wait';
import { EngineError } from '../../engine/types';
import { createWhisperEngine } from '../../engine/whisper/engine';
import type { DiarizationPaths } from './models';

type Json = { code: number; data: any };
const DIR = path.resolve('tmp/test-diarization-native');
let talk: SpeechFixture;
let model: string;

beforeAll(async () => {
  if (!hasEspeak()) throw new Error('espeak-ng is needed (apt-get install espeak-ng)');
  model = await testModelPath('tiny', 'words');
  talk = makeConversation(path.join(DIR, 'talk'), [
    {
      voice: 'en-us+m3',
      text: 'Hello, this is the first speaker talking about the weather today and tomorrow.',
    },
    {
      voice: 'en-us+f4',
      pitch: 80,
      text: 'And I am the second speaker, with a much higher voice, answering the question.',
    },
    {
      voice: 'en-us+m3',
      text: 'Then the first speaker comes back and says a few more words about the plan.',
    },
    {
      voice: 'en-us+f4',
      pitch: 80,
      text: 'Finally the second speaker agrees and the meeting is over for today.',
    },
  ]);
}, 60_000);

const engine = (paths: DiarizationPaths) =>
  createWhisperEngine({
    modelPath: model,
    modelName: 'tiny',
    threads: 1,
    diarization: { paths, provisioners: [] },
  });

describe('speaker diarization on the stand-in models', () => {
  let h: Awaited<ReturnType<typeof testApp>>;
  afterAll(async () => h?.close());

  it('runs from upload to saved segments with speakers', async () => {
    h = await testApp(
      {},
      { DATA_DIR: path.join(DIR, 'data') },
      { engine: engine(standInDiarization), worker: true },
    );
    const u = await signedInUser(h.db);
    const media = pcmToMedia(talk.pcmPath, path.join(DIR, 'talk.wav'));
    const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
    const { id: uploadId } = await tusUpload(fetcher, u.headers, readFileSync(media), 'talk.wav');
    const res = await h.app.request('/self-api/v1/transcripts', {
      method: 'POST',
      headers: { ...u.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ upload_id: uploadId, language: 'en', detect_speakers: true }),
    });
    expect(res.status).toBe(200);
    const id = ((await res.json()) as Json).data.id as string;
    const t = await waitFor(
      async () => {
        const got = (await (
          await h.app.request(`/self-api/v1/transcripts/${id}`, { headers: u.headers })
        ).json()) as Json;
        return got.data.status === 'done' || got.data.status === 'failed' ? got.data : undefined;
      },
      { ms: 120_000, everyMs: 200, what: 'the diarized transcript' },
    );
    expect(t.status).toBe('done');
    expect(t.segments.length).toBeGreaterThan(0);
    // Whatever words the random-weight Whisper model makes, each carries a speaker of the list.
    expect(t.speakers.length).toBeGreaterThan(0);
    const ids = new Set(t.speakers.map((s: { id: string }) => s.id));
    for (const s of t.segments) expect(ids.has(s.speaker)).toBe(true);
  }, 180_000);
});

describe('the turns the native diarization finds', () => {
  it('follows the conversation: four turns, two voices alternating, at the spoken times', async () => {
    const result = await engine(standInDiarization).transcribe(
      { pcmPath: talk.pcmPath, durationSec: talk.durationSec },
      { language: 'en', speakers: { count: null } },
    );
    const turns = result.speakerTurns!;
    expect(turns.map((t) => t.speaker)).toEqual([0, 1, 0, 1]);
    turns.forEach((t, i) => {
      const spoken = talk.speech[i]!;
      // pyannote's frames are 17 ms, its receptive field 62 ms; the clustering rounds further.
      expect(Math.abs(t.start - spoken.start)).toBeLessThan(0.3);
      expect(Math.abs(t.end - spoken.end)).toBeLessThan(0.5);
    });
  }, 120_000);
});

describe('speaker models that cannot be used', () => {
  const run = (paths: DiarizationPaths) =>
    engine(paths)
      .transcribe(
        { pcmPath: talk.pcmPath, durationSec: talk.durationSec },
        { language: 'en', speakers: { count: null } },
      )
      .catch((e: unknown) => e);
  const dir = (name: string) => {
    const at = path.join(DIR, name);
    mkdirSync(at, { recursive: true });
    return at;
  };

  it('a missing file: model_missing, before any transcription', async () => {
    const err = await run({ ...standInDiarization, embedding: path.join(dir('missing'), 'nope.onnx') });
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({
      code: 'model_missing',
      message: expect.stringContaining('nope.onnx does not exist'),
    });
  });

  it('a truncated download: model_invalid, naming the parse failure', async () => {
    // Long enough to pass the size check: the native parser is what finds it cut short.
    const at = path.join(dir('truncated'), 'embedding.onnx');
    const whole = readFileSync(standInDiarization.embedding);
    writeFileSync(at, whole.subarray(0, whole.length - 4096));
    const err = await run({ ...standInDiarization, embedding: at });
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ code: 'model_invalid' });
    expect((err as Error).message).toMatch(
      /speaker diarization models cannot be loaded.*(Protobuf|Load model|parsing)/i,
    );
  });

  it('a model of the wrong kind (an embedding model given as the segmentation one): model_invalid', async () => {
    const at = path.join(dir('wrong'), 'segmentation.onnx');
    copyFileSync(standInDiarization.embedding, at);
    const err = await run({ ...standInDiarization, segmentation: at });
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ code: 'model_invalid' });
    // sherpa-onnx names the metadata it missed before it exits.
    expect((err as Error).message).toMatch(
      /speaker diarization models cannot be loaded.*'window_size' does not exist in the metadata/,
    );
  });
});
