// The job's side of speakers: labels an engine streams (the OpenAI-compatible engine talking to a
// local server that answers diarized_json) and turns from local diarization become the
// transcript's speakers, named in the owner's language.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { testApp } from '../../test/harness';
import { makeMedia } from '../../test/media';
import { tusUpload } from '../../test/tus';
import { signedInUser } from '../../test/users';
import { waitFor } from '../../test/wait';
import { createOpenAiEngine } from '../engine/openai';
import type { Engine } from '../engine/types';

type Json = { code: number; data: any };
let h: Awaited<ReturnType<typeof testApp>>;
let server: Server;
let mode: 'openai' | 'turns' = 'openai';

const turnsEngine: Engine = {
  name: 'turns',
  async transcribe(audio, opts) {
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
      { start: 2.6, end: 3, text: 'Bye' },
    ];
    segments.forEach((s) => opts.onSegment?.(s));
    return {
      language: 'en',
      segments,
      speechRegions: null,
      // Cluster 1 speaks first: it becomes Speaker 1.
      speakerTurns: [
        { start: 0, end: 1.2, speaker: 1 },
        { start: 1.3, end: 2.5, speaker: 0 },
        { start: 2.5, end: audio.durationSec, speaker: 1 },
      ],
    };
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          task: 'transcribe',
          duration: 3,
          text: 'Are you there? Yes.',
          segments: [
            {
              type: 'transcript.text.segment',
              id: 'seg_0',
              start: 0,
              end: 1.5,
              text: 'Are you there?',
              speaker: 'A',
            },
            {
              type: 'transcript.text.segment',
              id: 'seg_1',
              start: 1.5,
              end: 2.9,
              text: 'Yes.',
              speaker: 'Dr. Who',
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const openai = createOpenAiEngine({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    model: 'gpt-4o-transcribe-diarize',
  });
  const engine: Engine = {
    name: 'switch',
    transcribe: (audio, opts) => (mode === 'openai' ? openai : turnsEngine).transcribe(audio, opts),
  };
  h = await testApp({}, { DATA_DIR: path.resolve('tmp/test-data-speakers') }, { engine, worker: true });
});
afterAll(async () => {
  await h?.close();
  server?.close();
});

async function transcribe(language: string) {
  const u = await signedInUser(h.db);
  await h.db.update(users).set({ language }).where(eq(users.id, u.user.id));
  const file = makeMedia(path.resolve('tmp/test-media'), 'wav', 3);
  const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
  const { id: uploadId } = await tusUpload(fetcher, u.headers, readFileSync(file), path.basename(file));
  const res = await h.app.request('/self-api/v1/transcripts', {
    method: 'POST',
    headers: { ...u.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ upload_id: uploadId, detect_speech: false }),
  });
  const id = ((await res.json()) as Json).data.id as string;
  return waitFor(
    async () => {
      const got = (await (
        await h.app.request(`/self-api/v1/transcripts/${id}`, { headers: u.headers })
      ).json()) as Json;
      return got.data.status === 'done' || got.data.status === 'failed' ? got.data : undefined;
    },
    { ms: 60_000, everyMs: 100, what: 'the transcript to be done' },
  );
}

describe('speakers in the transcription job', () => {
  it('keeps the speakers a diarizing OpenAI-compatible server labels, generic ones translated', async () => {
    mode = 'openai';
    const t = await transcribe('fr');
    expect(t.status).toBe('done');
    expect(t.speakers).toEqual([
      { id: 's1', name: 'Intervenant 1', color: '#2563eb' },
      { id: 's2', name: 'Dr. Who', color: '#dc2626' },
    ]);
    expect(t.segments.map((s: any) => [s.text, s.speaker])).toEqual([
      ['Are you there?', 's1'],
      ['Yes.', 's2'],
    ]);
  });

  it('puts local diarization turns on words by overlap, cutting segments where the speaker changes', async () => {
    mode = 'turns';
    const t = await transcribe('en');
    expect(t.speakers.map((s: any) => s.name)).toEqual(['Speaker 1', 'Speaker 2']);
    expect(t.segments.map((s: any) => [s.text, s.speaker])).toEqual([
      ['Hi there.', 's1'],
      ['Hello', 's2'],
      ['Bye', 's1'],
    ]);
  });
});
