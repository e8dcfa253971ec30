// `npm run bench:pipeline`: figures for the transcription pipeline (not a test; no pass/fail).
//   (a) overhead: upload complete → transcript saved, divided by the bare engine on the same
//       decoded audio, model and threads (10-minute file, random weights with real tiny dims);
//   (b) server RSS while a 2 GB file is uploaded through tus;
//   (c) time from queuing the job to the first segment reaching an event-stream client.
// BENCH_MINUTES (default 10), BENCH_PRESET (tiny|base, default tiny), BENCH_UPLOAD_MB (2048),
// BENCH_TEMPERATURE (default 1: one decoding pass per window).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createApp } from '../server/app';
import { openDatabase } from '../server/db/client';
import { buildServiceDeps } from '../server/deps';
import { loadEnv } from '../server/env';
import { createLogger } from '../server/logger';
import { createWhisperEngine } from '../server/modules/engine/whisper/engine';
import { decodeToPcm, PCM_BYTES_PER_SECOND } from '../server/modules/media/decode';
import { testModelPath } from '../server/test/test-model';
import { buildServer, SERVER_OUT, serverBuildIsStale } from '../scripts/build-server.mjs';
import { tusUpload } from '../server/test/tus';
import { signedInUser } from '../server/test/users';

const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const PRESET = (process.env.BENCH_PRESET ?? 'tiny') as 'tiny';
const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 2048);
const threads = String(os.availableParallelism());
const TEMPERATURE = process.env.BENCH_TEMPERATURE ?? '1';

const work = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-pipeline-'));
const model = await testModelPath(PRESET);
const audio = path.join(work, 'talk.wav');
// Speech-like input: espeak-ng when available, else a tone; looped to the length asked for.
try {
  execFileSync('espeak-ng', [
    '-w',
    path.join(work, 'one.wav'),
    'The quick brown fox jumps over the lazy dog. '.repeat(12),
  ]);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-stream_loop',
    '-1',
    '-i',
    path.join(work, 'one.wav'),
    '-t',
    String(MINUTES * 60),
    '-ar',
    '16000',
    '-ac',
    '1',
    audio,
  ]);
} catch {
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=300:duration=${MINUTES * 60}`,
    audio,
  ]);
}

const env = loadEnv({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATA_DIR: path.join(work, 'data'),
  WHISPER_MODEL: model,
  WHISPER_THREADS: threads,
  // Random weights make whisper.cpp retry every window at up to six temperatures; one pass at a
  // fixed temperature gives both runs the same bounded work, which is what a ratio needs.
  WHISPER_TEMPERATURE: TEMPERATURE,
});
const logger = createLogger('silent');
const database = await openDatabase({ pgliteDir: path.join(work, 'data', 'pglite') });
const services = await buildServiceDeps(env, database.db, logger, { exclusiveDb: true });
services.startWorker();
const app = createApp({ env, logger, db: database.db, services, build: { id: 'bench', timestamp: 0 } });
const listener = getRequestListener(app.fetch);
const server = http.createServer((req, res) => void listener(req, res)).listen(0, '127.0.0.1');
await new Promise<void>((r) => server.once('listening', () => r()));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const user = await signedInUser(database.db, { rankName: 'UNLIMITED' });
const fetcher = (p: string, init: RequestInit) => fetch(`${base}${p}`, init);
// State-changing calls must come from this site's origin.
user.headers.origin = base;

// (a) + (c): the whole pipeline through the HTTP API.
const { id: uploadId } = await tusUpload(fetcher, user.headers, readFileSync(audio), 'talk.wav', {
  chunkSize: 8 * 1024 * 1024,
});
const t0 = performance.now();
const created = await fetcher('/self-api/v1/transcripts', {
  method: 'POST',
  headers: { ...user.headers, 'content-type': 'application/json' },
  body: JSON.stringify({ upload_id: uploadId, language: 'en' }),
});
const id = ((await created.json()) as { data: { id: string } }).data.id;
let firstSegment = 0;
const stream = await fetcher(`/self-api/v1/transcripts/${id}/events`, { headers: user.headers });
const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
let buffer = '';
let finalStatus = '';
for (;;) {
  const { value, done } = await reader.read();
  if (done) break;
  buffer += value;
  for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
    const block = buffer.slice(0, i);
    buffer = buffer.slice(i + 2);
    const event = /^event: (\w+)/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1] ?? '{}';
    if (event === 'segment' && !firstSegment) firstSegment = performance.now();
    if (event === 'snapshot') finalStatus = (JSON.parse(data) as { status: string }).status;
  }
}
const pipelineSec = (performance.now() - t0) / 1000;

// The bare engine on the same decoded audio, model and threads.
const pcm = path.join(work, 'talk.pcm');
await decodeToPcm('ffmpeg', audio, pcm);
const engine = createWhisperEngine({
  modelPath: model,
  threads: Number(threads),
  temperature: Number(TEMPERATURE),
});
const t1 = performance.now();
await engine.transcribe(
  { pcmPath: pcm, durationSec: statSync(pcm).size / PCM_BYTES_PER_SECOND },
  { language: 'en' },
);
const engineSec = (performance.now() - t1) / 1000;

// (b) RSS of a real server process (npm start's entry) while a client process streams a large
// upload. The in-process server above is closed first: the data directory is handed over.
const big = await signedInUser(database.db, { rankName: 'UNLIMITED' });
server.close();
await services.close();
await database.close();
const port = 20_000 + Math.floor(Math.random() * 20_000);
if (serverBuildIsStale()) await buildServer();
// With npm start's V8 option (package.json).
const child = spawn(
  process.execPath,
  ['--max-semi-space-size=2', '--enable-source-maps', path.join(SERVER_OUT, 'main.js')],
  {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: env.DATA_DIR,
      LOG_LEVEL: 'error',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
const childBase = `http://127.0.0.1:${port}`;
for (;;) {
  try {
    if ((await fetch(`${childBase}/healthz`)).ok) break;
  } catch {
    // not listening yet
  }
  await new Promise((r) => setTimeout(r, 200));
}
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
const rssBefore = rssOf(child.pid!);
let peakRss = rssBefore;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(child.pid!))), 100);
const uploadStart = performance.now();
await new Promise<void>((resolve, reject) => {
  const client = spawn(
    process.execPath,
    ['bench/upload-client.mjs', childBase, big.headers.cookie, String(UPLOAD_MB)],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  client.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`upload client exited ${code}`))));
});
clearInterval(sampler);
child.kill('SIGTERM');
const uploadSec = (performance.now() - uploadStart) / 1000;

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
console.log(`\nTranscription pipeline — ${MINUTES} min of audio, ${PRESET} dimensions, ${threads} threads`);
console.log(
  `(a) upload complete → saved: ${pipelineSec.toFixed(1)} s (${finalStatus}); bare engine: ${engineSec.toFixed(1)} s; overhead ratio ${(pipelineSec / engineSec).toFixed(3)}`,
);
console.log(`    engine speed: ${((MINUTES * 60) / engineSec).toFixed(1)} s of audio per s of compute`);
console.log(
  `(b) ${UPLOAD_MB} MB tus upload in ${uploadSec.toFixed(1)} s (${(UPLOAD_MB / uploadSec).toFixed(0)} MB/s): server RSS ${mb(rssBefore)} before, peak ${mb(peakRss)}`,
);
console.log(
  `(c) job queued → first segment on the event stream: ${firstSegment ? ((firstSegment - t0) / 1000).toFixed(2) : 'n/a'} s`,
);

rmSync(work, { recursive: true, force: true });
process.exit(0);
