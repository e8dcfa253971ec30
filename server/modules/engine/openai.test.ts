import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createOpenAiEngine,
  endpointUrl,
  planRanges,
  toWhisperCode,
  type OpenAiEngineOptions,
} from './openai.ts';
import { EngineError, type Segment } from './types.ts';

const run = promisify(execFile);
const API_KEY = 'sk-test-0123456789abcdef';

/** What the fake server saw of one upload. */
interface Upload {
  path: string;
  auth: string | undefined;
  /** Form fields; a repeated one (timestamp_granularities[]) lists its values. */
  fields: Record<string, string | string[]>;
  fileName: string;
  fileType: string;
  fileSize: number;
  /** Measured by ffprobe on the uploaded bytes. */
  duration: number;
}

type Reply = (upload: Upload, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let work: string;
let uploads: Upload[] = [];
let reply: Reply;
let onUpload: (() => void) | null = null;

/** The documented success: verbose_json with two segments per chunk (and a blank one to drop). */
const verboseReply: Reply = (upload, res) => {
  const d = upload.duration;
  const n = uploads.length;
  json(res, 200, {
    task: upload.path.endsWith('/translations') ? 'translate' : 'transcribe',
    language: 'english',
    duration: d,
    text: `first ${n} second ${n}`,
    segments: [
      { id: 0, seek: 0, start: 0, end: d / 2, text: ` first ${n} ` },
      { id: 1, seek: 0, start: d / 2, end: d / 2, text: '   ' },
      // Whisper sometimes runs a little past the end of the audio.
      { id: 2, seek: 0, start: d / 2, end: d + 0.5, text: ` second ${n}` },
    ],
  });
};

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function parseUpload(req: IncomingMessage): Promise<Upload> {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    for (const value of Array.isArray(v) ? v : v === undefined ? [] : [v]) headers.append(k, value);
  }
  const request = new Request(`http://127.0.0.1${req.url}`, {
    method: req.method,
    headers,
    body: Readable.toWeb(req) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const form = await request.formData();
  const fields: Record<string, string | string[]> = {};
  let file: File | null = null;
  for (const [name, value] of form) {
    if (typeof value === 'string') {
      const had = fields[name];
      fields[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
    } else if (name === 'file') file = value;
  }
  if (!file) throw new Error('no file field');
  const bytes = Buffer.from(await file.arrayBuffer());
  const probePath = join(work, `upload-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  await writeFile(probePath, bytes);
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    probePath,
  ]);
  await rm(probePath);
  return {
    path: new URL(req.url ?? '/', 'http://x').pathname,
    auth: req.headers.authorization,
    fields,
    fileName: file.name,
    fileType: file.type,
    fileSize: bytes.length,
    duration: Number(stdout.trim()),
  };
}

async function makePcm(name: string, seconds: number): Promise<string> {
  const out = join(work, name);
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-ar', '16000', '-ac', '1', '-f', 's16le', '-y', out],
  ]);
  return out;
}

function engine(extra: Partial<OpenAiEngineOptions> = {}) {
  return createOpenAiEngine({ baseUrl, apiKey: API_KEY, model: 'whisper-1', ...extra });
}

async function failure(p: Promise<unknown>): Promise<EngineError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngineError);
  return err as EngineError;
}

let pcm6: string;
let pcm60: string;
let empty: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'openai-engine-test-'));
  [pcm6, pcm60] = await Promise.all([makePcm('six.pcm', 6), makePcm('sixty.pcm', 60)]);
  empty = join(work, 'empty.pcm');
  await writeFile(empty, '');

  server = createServer((req, res) => {
    parseUpload(req).then(
      (upload) => {
        uploads.push(upload);
        onUpload?.();
        reply(upload, res);
      },
      (err: unknown) => json(res, 400, { error: { message: `bad multipart: ${String(err)}` } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  uploads = [];
  reply = verboseReply;
  onUpload = null;
  server.closeAllConnections();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(work, { recursive: true, force: true });
});

reply = verboseReply;

describe('openai engine', () => {
  it('transcribes a short file in one request', async () => {
    const segments: Segment[] = [];
    const progress: number[] = [];
    const result = await engine().transcribe(
      { pcmPath: pcm6, durationSec: 6 },
      { language: 'auto', onSegment: (s) => segments.push(s), onProgress: (p) => progress.push(p) },
    );

    expect(uploads).toHaveLength(1);
    const [up] = uploads as [Upload];
    expect(up.path).toBe('/v1/audio/transcriptions');
    expect(up.auth).toBe(`Bearer ${API_KEY}`);
    expect(up.fields).toEqual({
      model: 'whisper-1',
      response_format: 'verbose_json',
      'timestamp_granularities[]': ['segment', 'word'],
    });
    expect(up.fileName).toMatch(/\.mp3$/);
    expect(up.fileType).toBe('audio/mpeg');
    expect(up.duration).toBeGreaterThan(5.9);
    expect(up.duration).toBeLessThan(6.2);

    expect(result.language).toBe('en');
    expect(result.segments.map((s) => s.text)).toEqual(['first 1', 'second 1']);
    expect(result.segments[0]!.start).toBe(0);
    // Clamped to the media's duration although the server said d + 0.5.
    expect(result.segments[1]!.end).toBeLessThanOrEqual(6);
    expect(segments).toEqual(result.segments);
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('sends a requested language and reports it; does not double /v1', async () => {
    const result = await engine({ baseUrl: `${baseUrl}/v1/`, apiKey: undefined }).transcribe(
      { pcmPath: pcm6, durationSec: 6 },
      { language: 'fr' },
    );
    expect(uploads[0]!.path).toBe('/v1/audio/transcriptions');
    expect(uploads[0]!.auth).toBeUndefined();
    expect(uploads[0]!.fields.language).toBe('fr');
    expect(result.language).toBe('fr');
  });

  it('splits long audio into uploads under maxUploadBytes and puts the times back', async () => {
    const maxUploadBytes = 64 * 1024;
    const segments: Segment[] = [];
    const progress: number[] = [];
    const result = await engine({ maxUploadBytes }).transcribe(
      { pcmPath: pcm60, durationSec: 60 },
      { language: 'auto', onSegment: (s) => segments.push(s), onProgress: (p) => progress.push(p) },
    );

    expect(uploads.length).toBeGreaterThanOrEqual(3);
    for (const up of uploads) expect(up.fileSize).toBeLessThanOrEqual(maxUploadBytes);
    const sent = uploads.reduce((sum, up) => sum + up.duration, 0);
    expect(sent).toBeGreaterThan(59.5);
    expect(sent).toBeLessThan(60.5 + 0.1 * uploads.length);
    // Each chunk after the first is told how the previous one ended.
    expect(uploads[0]!.fields.prompt).toBeUndefined();
    expect(uploads[1]!.fields.prompt).toBe('first 1 second 1');

    expect(result.segments).toHaveLength(uploads.length * 2);
    expect(result.segments.map((s) => s.text)).toEqual(
      uploads.flatMap((_, i) => [`first ${i + 1}`, `second ${i + 1}`]),
    );
    let previousEnd = 0;
    for (const s of result.segments) {
      expect(s.start).toBeGreaterThanOrEqual(previousEnd - 1e-6);
      expect(s.end).toBeGreaterThanOrEqual(s.start);
      expect(s.end).toBeLessThanOrEqual(60);
      previousEnd = s.end;
    }
    expect(result.segments[0]!.start).toBe(0);
    expect(result.segments.at(-1)!.end).toBeGreaterThan(59.5);
    expect(segments).toEqual(result.segments);

    expect(progress).toHaveLength(uploads.length + 1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-2)).toBeLessThan(100);
    expect(progress.at(-1)).toBe(100);
  });

  it('re-splits a chunk that comes out larger than planned', async () => {
    // An ffmpeg that encodes at twice the requested bitrate: every planned chunk is too big.
    const fat = join(work, 'fat-ffmpeg.sh');
    await writeFile(
      fat,
      '#!/usr/bin/env bash\nargs=()\nfor a in "$@"; do [ "$a" = 32k ] && a=64k; args+=("$a"); done\nexec ffmpeg "${args[@]}"\n',
    );
    await chmod(fat, 0o755);
    const maxUploadBytes = 64 * 1024;
    const result = await engine({ maxUploadBytes, ffmpegPath: fat }).transcribe(
      { pcmPath: pcm60, durationSec: 60 },
      { language: 'auto' },
    );
    expect(uploads.length).toBeGreaterThanOrEqual(8);
    for (const up of uploads) expect(up.fileSize).toBeLessThanOrEqual(maxUploadBytes);
    expect(uploads.reduce((sum, up) => sum + up.duration, 0)).toBeGreaterThan(59.5);
    const starts = result.segments.map((s) => s.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(result.segments.at(-1)!.end).toBeGreaterThan(59.5);
  });

  it('uses /translations without language or granularities when translating', async () => {
    const result = await engine().transcribe(
      { pcmPath: pcm6, durationSec: 6 },
      { language: 'de', translate: true },
    );
    expect(uploads[0]!.path).toBe('/v1/audio/translations');
    expect(uploads[0]!.fields).toEqual({ model: 'whisper-1', response_format: 'verbose_json' });
    expect(result.language).toBe('de');
    expect(result.segments).toHaveLength(2);

    // "english" from a translation is the output's language, not what was spoken.
    const auto = await engine().transcribe(
      { pcmPath: pcm6, durationSec: 6 },
      { language: 'auto', translate: true },
    );
    expect(auto.language).toBeNull();
  });

  it('makes one segment of a response that has only text', async () => {
    reply = (upload, res) =>
      json(res, 200, { language: 'German', duration: upload.duration, text: ' Hallo Welt ' });
    const result = await engine().transcribe({ pcmPath: pcm6, durationSec: 6 }, { language: 'auto' });
    expect(result.language).toBe('de');
    expect(result.segments).toHaveLength(1);
    expect(result.segments[0]!.text).toBe('Hallo Welt');
    expect(result.segments[0]!.start).toBe(0);
    expect(result.segments[0]!.end).toBeGreaterThan(5.9);
    expect(result.segments[0]!.end).toBeLessThanOrEqual(6);
  });

  it('gives each segment the words timed inside it', async () => {
    reply = (upload, res) =>
      json(res, 200, {
        language: 'english',
        text: 'Hello there. General Kenobi.',
        segments: [
          { start: 0, end: 2, text: ' Hello there.' },
          { start: 2, end: 5, text: ' General Kenobi.' },
        ],
        words: [
          { word: 'Hello', start: 0.1, end: 0.6 },
          { word: 'there', start: 0.7, end: 1.4 },
          { word: 'General', start: 2.2, end: 3 },
          { word: 'Kenobi', start: 3.1, end: 9 },
        ],
      });
    const result = await engine().transcribe({ pcmPath: pcm6, durationSec: 6 }, { language: 'en' });
    expect(result.segments[0]!.words).toEqual([
      { start: 0.1, end: 0.6, text: 'Hello' },
      { start: 0.7, end: 1.4, text: 'there' },
    ]);
    expect(result.segments[1]!.words!.map((w) => w.text)).toEqual(['General', 'Kenobi']);
    // Clamped to the audio like the segments.
    expect(result.segments[1]!.words![1]!.end).toBeLessThanOrEqual(6);
  });

  it('keeps speakers from a diarizing model (diarized_json), labels kept apart per chunk', async () => {
    // OpenAI's documented diarized_json: segments with a speaker label, letters per request.
    const diarizedReply: Reply = (upload, res) => {
      const d = upload.duration;
      json(res, 200, {
        task: 'transcribe',
        duration: d,
        text: 'Are you there? Yes.',
        segments: [
          {
            type: 'transcript.text.segment',
            id: 'seg_0',
            start: 0,
            end: d / 2,
            text: ' Are you there?',
            speaker: 'A',
          },
          { type: 'transcript.text.segment', id: 'seg_1', start: d / 2, end: d, text: ' Yes.', speaker: 'B' },
        ],
        usage: { type: 'duration', seconds: Math.ceil(d) },
      });
    };
    reply = diarizedReply;
    const one = await engine({ model: 'gpt-4o-transcribe-diarize' }).transcribe(
      { pcmPath: pcm6, durationSec: 6 },
      { language: 'en' },
    );
    expect(uploads[0]!.fields).toEqual({
      model: 'gpt-4o-transcribe-diarize',
      response_format: 'diarized_json',
      chunking_strategy: 'auto',
      language: 'en',
    });
    expect(one.segments.map((s) => [s.text, s.speaker])).toEqual([
      ['Are you there?', 'A'],
      ['Yes.', 'B'],
    ]);

    uploads = [];
    const two = await engine({ model: 'gpt-4o-transcribe-diarize', maxChunkSec: 30 }).transcribe(
      { pcmPath: pcm60, durationSec: 60 },
      { language: 'auto' },
    );
    expect(uploads).toHaveLength(2);
    // No prompt: diarizing models refuse one.
    expect(uploads[1]!.fields.prompt).toBeUndefined();
    expect(two.segments.map((s) => s.speaker)).toEqual(['c1-A', 'c1-B', 'c2-A', 'c2-B']);
    expect(two.segments[2]!.start).toBeCloseTo(30, 0);
  });

  it('stops asking for word timestamps once a server refuses them', async () => {
    reply = (upload, res) => {
      const granularities = upload.fields['timestamp_granularities[]'];
      if (Array.isArray(granularities) && granularities.includes('word'))
        return json(res, 400, { error: { message: "timestamp_granularities 'word' is not supported" } });
      verboseReply(upload, res);
    };
    const e = engine();
    const first = await e.transcribe({ pcmPath: pcm6, durationSec: 6 }, { language: 'en' });
    expect(first.segments).toHaveLength(2);
    await e.transcribe({ pcmPath: pcm6, durationSec: 6 }, { language: 'en' });
    expect(uploads.map((u) => u.fields['timestamp_granularities[]'])).toEqual([
      ['segment', 'word'],
      'segment',
      'segment',
    ]);
  });

  it('sends nothing for empty audio', async () => {
    const progress: number[] = [];
    const result = await engine().transcribe(
      { pcmPath: empty, durationSec: 0 },
      { language: 'auto', onProgress: (p) => progress.push(p) },
    );
    expect(uploads).toHaveLength(0);
    expect(result).toEqual({ language: null, segments: [], speechRegions: null });
    expect(progress).toEqual([100]);
  });

  it('turns a 500 into a transient remote_error', async () => {
    reply = (_u, res) => json(res, 500, { error: { message: 'The server had an error' } });
    const err = await failure(engine().transcribe({ pcmPath: pcm6, durationSec: 6 }, { language: 'auto' }));
    expect(err.code).toBe('remote_error');
    expect(err.transient).toBe(true);
    expect(err.message).toContain('500');
  });

  it('turns a 429 into a transient remote_error that mentions Retry-After', async () => {
    reply = (_u, res) =>
      json(res, 429, { error: { message: 'Rate limit reached' } }, { 'retry-after': '20' });
    const err = await failure(engine().transcribe({ pcmPath: pcm6, durationSec: 6 }, { language: 'auto' }));
    expect(err.code).toBe('remote_error');
    expect(err.transient).toBe(true);
    expect(err.message).toContain('Rate limit reached');
    expect(err.message).toContain('retry after 20');
  });

  it("turns a 400 into remote_rejected carrying the server's message", async () => {
    reply = (_u, res) =>
      json(res, 400, {
        error: { message: 'Invalid file format.', type: 'invalid_request_error', code: null },
      });
    const err = await failure(engine().transcribe({ pcmPath: pcm6, durationSec: 6 }, { language: 'auto' }));
    expect(err.code).toBe('remote_rejected');
    expect(err.transient).toBe(false);
    expect(err.message).toContain('Invalid file format.');
  });

  it('cancels fast mid-request and cleans its temp files', async () => {
    const tempDir = join(work, 'cancel-tmp');
    await mkdir(tempDir);
    reply = () => {}; // never answers
    const controller = new AbortController();
    // Timed from the cancel itself: encoding the audio before the upload is not part of it.
    let started = 0;
    onUpload = () => {
      started = Date.now();
      controller.abort();
    };
    const err = await failure(
      engine({ tempDir, maxUploadBytes: 64 * 1024 }).transcribe(
        { pcmPath: pcm60, durationSec: 60 },
        { language: 'auto', signal: controller.signal },
      ),
    );
    expect(err.code).toBe('canceled');
    expect(started).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(uploads).toHaveLength(1);
    expect(await readdir(tempDir)).toEqual([]);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const err = await failure(
      engine().transcribe(
        { pcmPath: pcm6, durationSec: 6 },
        { language: 'auto', signal: AbortSignal.abort() },
      ),
    );
    expect(err.code).toBe('canceled');
    expect(uploads).toHaveLength(0);
  });

  it('turns a timeout into a transient remote_error', async () => {
    reply = () => {};
    const err = await failure(
      engine({ timeoutMs: 300 }).transcribe({ pcmPath: pcm6, durationSec: 6 }, { language: 'auto' }),
    );
    expect(err.code).toBe('remote_error');
    expect(err.transient).toBe(true);
  });

  it('refuses an unsupported language before any work', async () => {
    const tempDir = join(work, 'lang-tmp');
    await mkdir(tempDir);
    const err = await failure(
      engine({ tempDir }).transcribe({ pcmPath: pcm6, durationSec: 6 }, { language: 'xx' }),
    );
    expect(err.code).toBe('unsupported_language');
    expect(uploads).toHaveLength(0);
    expect(await readdir(tempDir)).toEqual([]);
  });

  it('never puts the API key in an error', async () => {
    reply = (_u, res) =>
      json(res, 401, {
        error: { message: `Incorrect API key provided: ${API_KEY}.`, code: 'invalid_api_key' },
      });
    const rejected = await failure(
      engine().transcribe({ pcmPath: pcm6, durationSec: 6 }, { language: 'auto' }),
    );
    expect(rejected.code).toBe('remote_rejected');
    expect(rejected.message).toContain('Incorrect API key provided');
    expect(rejected.message).not.toContain(API_KEY);
    expect(rejected.stack ?? '').not.toContain(API_KEY);

    // Nothing listens there: a network error, transient, with the key nowhere.
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const port = (dead.address() as AddressInfo).port;
    await new Promise((resolve) => dead.close(resolve));
    const unreachable = await failure(
      engine({ baseUrl: `http://127.0.0.1:${port}` }).transcribe(
        { pcmPath: pcm6, durationSec: 6 },
        { language: 'auto' },
      ),
    );
    expect(unreachable.code).toBe('remote_error');
    expect(unreachable.transient).toBe(true);
    expect(unreachable.message).not.toContain(API_KEY);
  });
});

describe('helpers', () => {
  it('maps reported languages to Whisper codes', () => {
    expect(toWhisperCode('english')).toBe('en');
    expect(toWhisperCode('English')).toBe('en');
    expect(toWhisperCode('haitian creole')).toBe('ht');
    expect(toWhisperCode('castilian')).toBe('es');
    expect(toWhisperCode('en')).toBe('en');
    expect(toWhisperCode('pt-BR')).toBe('pt');
    expect(toWhisperCode('jv')).toBe('jw');
    expect(toWhisperCode('klingon')).toBeNull();
    expect(toWhisperCode(undefined)).toBeNull();
  });

  it('adds /v1 once', () => {
    expect(endpointUrl('https://api.openai.com', 'audio/transcriptions')).toBe(
      'https://api.openai.com/v1/audio/transcriptions',
    );
    expect(endpointUrl('https://api.groq.com/openai/v1/', 'audio/translations')).toBe(
      'https://api.groq.com/openai/v1/audio/translations',
    );
  });

  it('plans equal ranges that cover the audio', () => {
    expect(planRanges(0.05, 600)).toEqual([]);
    expect(planRanges(600, 600)).toEqual([{ start: 0, duration: 600 }]);
    const ranges = planRanges(1300, 600);
    expect(ranges).toHaveLength(3);
    expect(ranges.reduce((sum, r) => sum + r.duration, 0)).toBeCloseTo(1300, 6);
    expect(ranges[2]!.start + ranges[2]!.duration).toBeCloseTo(1300, 6);
  });
});
