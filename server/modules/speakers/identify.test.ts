// Speakers when the speaker models are not there, and identified later on a finished transcript:
// the real whisper engine (stand-in model) with an empty speaker-model folder delivers the text
// without speakers and says why; "identify speakers" is a job on the finished transcript (here
// with an engine whose diarization answers fixed turns: no real diarization weights exist here).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcripts } from '../../db/schema';
import { testApp } from '../../test/harness';
import { makeMedia } from '../../test/media';
import { testModelPath } from '../../test/test-model';
import { tusUpload } from '../../test/tus';
import { signedInUser } from '../../test/users';
import { waitFor } from '../../test/wait';
import type { Engine } from '../engine/types';

type App = Awaited<ReturnType<typeof testApp>>;
let real: App;
let fake: App;
let emptyModels: string;

/** Answers words as the local engine does, and who spoke when only when asked afterwards. */
const laterEngine: Engine = {
  name: 'later',
  async transcribe(_audio, opts) {
    const segments = [
      {
        start: 0,
        end: 2.5,
        text: 'Hi there. Hello',
        words: [
          { start: 0, end: 0.4, text: 'Hi' },
          { start: 0.4, end: 1, text: 'there.' },
          { start: 1.6, end: 2.4, text: 'Hello' },
        ],
      },
    ];
    segments.forEach((s) => opts.onSegment?.(s));
    return { language: 'en', segments, speechRegions: null };
  },
  async speakersReady() {},
  async identifySpeakers(audio) {
    return [
      { start: 0, end: 1.2, speaker: 0 },
      { start: 1.3, end: audio.durationSec, speaker: 1 },
    ];
  },
};

beforeAll(async () => {
  emptyModels = mkdtempSync(path.join(os.tmpdir(), 'cs-no-speaker-models-'));
  real = await testApp(
    {},
    {
      DATA_DIR: path.resolve('tmp/test-data-identify'),
      WHISPER_MODEL: await testModelPath(),
      WHISPER_THREADS: '1',
      DIARIZATION_MODEL_DIR: emptyModels,
    },
    { worker: true },
  );
  fake = await testApp(
    {},
    { DATA_DIR: path.resolve('tmp/test-data-identify-later') },
    { engine: laterEngine, worker: true },
  );
}, 180_000);
afterAll(async () => {
  await real?.close();
  await fake?.close();
  rmSync(emptyModels, { recursive: true, force: true });
}, 60_000);

async function transcribe(h: App, headers: Record<string, string>, options: Record<string, unknown>) {
  const file = makeMedia(path.resolve('tmp/test-media'), 'wav', 3);
  const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
  const { id: uploadId } = await tusUpload(fetcher, headers, readFileSync(file), path.basename(file));
  const created = await h.api('POST', '/transcripts', headers, {
    upload_id: uploadId,
    detect_speech: false,
    ...options,
  });
  expect(created.json.code).toBe(200);
  return finished(h, headers, created.json.data.id as string);
}

const finished = (
  h: App,
  headers: Record<string, string>,
  id: string,
  until = (t: any) => t.status === 'done' || t.status === 'failed',
) =>
  waitFor(
    async () => {
      const { json } = await h.api('GET', `/transcripts/${id}`, headers);
      return until(json.data) ? json.data : undefined;
    },
    { ms: 60_000, everyMs: 100, what: 'the transcript to settle' },
  );

describe('speakers asked for while the speaker models are missing', () => {
  it('delivers the transcript without speakers and says why, instead of failing it', async () => {
    const u = await signedInUser(real.db);
    const t = await transcribe(real, u.headers, { detect_speakers: true });
    expect(t.status).toBe('done');
    expect(t.error).toBeNull();
    expect(t.speakers).toEqual([]);
    expect(t.speaker_note).toBe('unavailable');
  });

  it('"identify speakers" later is a job that ends with the same note while the models are still missing', async () => {
    const u = await signedInUser(real.db);
    const t = await transcribe(real, u.headers, {});
    expect(t.speaker_note).toBeNull();
    const asked = await real.api('POST', `/transcripts/${t.id}/speakers/identify`, u.headers, {});
    expect(asked.res.status).toBe(202);
    expect(asked.json.data.speaker_note).toBe('identifying');
    const after = await finished(real, u.headers, t.id, (x) => x.speaker_note !== 'identifying');
    expect(after.speaker_note).toBe('unavailable');
    expect(after.status).toBe('done');
    expect(after.segments).toEqual(t.segments);
  });
});

describe('identifying speakers on a finished transcript', () => {
  it('puts the speakers on the text as it is, named in the owner language', async () => {
    const u = await signedInUser(fake.db);
    const t = await transcribe(fake, u.headers, {});
    expect(t.speakers).toEqual([]);
    const asked = await fake.api('POST', `/transcripts/${t.id}/speakers/identify`, u.headers, {
      speaker_count: 2,
    });
    expect(asked.res.status).toBe(202);
    const after = await finished(
      fake,
      u.headers,
      t.id,
      (x) => x.speaker_note === null && x.speakers.length > 0,
    );
    expect(after.speakers.map((s: any) => s.name)).toEqual(['Speaker 1', 'Speaker 2']);
    expect(after.segments.map((s: any) => [s.text, s.speaker])).toEqual([
      ['Hi there.', 's1'],
      ['Hello', 's2'],
    ]);
  });

  it('refuses a transcript that is not finished or is being identified, and another user’s', async () => {
    const u = await signedInUser(fake.db);
    const other = await signedInUser(fake.db);
    const t = await transcribe(fake, u.headers, {});
    const ask = (headers: Record<string, string>, body: unknown = {}) =>
      fake.api('POST', `/transcripts/${t.id}/speakers/identify`, headers, body);
    expect((await ask(other.headers)).res.status).toBe(404);
    expect((await ask(u.headers, { speaker_count: 0 })).res.status).toBe(422);
    await fake.db.update(transcripts).set({ speakerNote: 'identifying' }).where(eq(transcripts.id, t.id));
    expect((await ask(u.headers)).json).toMatchObject({
      code: 40942,
      message_key: 'errors.speakers.notReady',
    });
    await fake.db
      .update(transcripts)
      .set({ speakerNote: null, status: 'failed' })
      .where(eq(transcripts.id, t.id));
    expect((await ask(u.headers)).json).toMatchObject({
      code: 40942,
      message_key: 'errors.speakers.notReady',
    });
  });
});
