// Captioned-video render and translation figures on this machine (docs/decisions/0029, 0030):
//
//   1. each preset (classic, boxed, social, karaoke) burned into a 720p30 H.264 video with the
//      shipped static ffmpeg, x264 veryfast: × real time (media seconds per wall second; target
//      > 1) and ffmpeg's peak resident memory; plus 9:16 crop and an audio-only source;
//   2. translating a one-hour transcript (≈ 900 segments) through the `openai` adapter against a
//      local streaming server that answers at once: our overhead only (batching, prompts,
//      streaming, validation, progress), per batch and in total.
//
//   npm run bench:render [-- --seconds 120] [--dir /tmp/clipscribe-render-bench]
//
// The default clip is 2 minutes of a 10-minute-class 720p source (speed per media second does
// not depend on the length; a 10-minute run is --seconds 600). Run under /tmp/lock.browser.
import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { renderStyleSchema, type RenderPreset, type RenderShape } from '../common/render-options';
import type { Segment } from '../common/segments';
import { buildAss } from '../server/modules/render/ass';
import { renderArgs, renderFfmpegPath, runRender, writeFontconfig } from '../server/modules/render/ffmpeg';
import { prepareFontsDir } from '../server/modules/render/fonts';
import { AUDIO_FRAME, outputFrame } from '../server/modules/render/geometry';
import { startChatServer, streamed, type ChatRequest } from '../server/test/chat-server';
import { createOpenAiModel } from '../server/modules/language-model/openai';
import { translateSegments } from '../server/modules/translation/batches';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const seconds = Number(flag('seconds', '120'));
const dir = flag('dir', path.join(os.tmpdir(), 'clipscribe-render-bench'));
const ffmpeg = renderFfmpegPath();

const WORDS =
  'so the plan for this quarter is simple we ship the new onboarding flow by the end of march and then we measure'.split(
    ' ',
  );
/** Speech-like segments: a word every 0.35 s, a segment every ~4 s. */
function segmentsFor(total: number): Segment[] {
  const out: Segment[] = [];
  for (let t = 0; t < total; t += 4) {
    const words = [];
    for (let k = 0; k < 10 && t + k * 0.35 < total; k++) {
      words.push({ start: t + k * 0.35, end: t + k * 0.35 + 0.3, text: WORDS[(t / 4 + k) % WORDS.length]! });
    }
    out.push({ start: t, end: Math.min(total, t + 3.6), text: words.map((w) => w.text).join(' '), words });
  }
  return out;
}

async function renderOnce(input: string, hasVideo: boolean, preset: RenderPreset, shape: RenderShape) {
  const work = path.join(dir, `w-${preset}-${shape.replace(':', 'x')}-${hasVideo ? 'v' : 'a'}`);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const style = renderStyleSchema.parse({ preset });
  const frame = outputFrame(hasVideo ? { width: 1280, height: 720 } : AUDIO_FRAME, shape, 720);
  const doc = buildAss({
    segments: segmentsFor(seconds),
    speakers: [],
    language: 'en',
    style,
    frame,
    offset: 0,
    duration: seconds,
    watermark: null,
  });
  const assFile = path.join(work, 'c.ass');
  await writeFile(assFile, doc.text);
  const fontsDir = await prepareFontsDir(path.join(work, 'fonts'), doc.scripts, style.font);
  const fontconfigFile = await writeFontconfig(work);
  const started = performance.now();
  const { peakRssKb } = await runRender(
    ffmpeg,
    renderArgs({
      input,
      hasVideo,
      offset: 0,
      duration: seconds,
      frame,
      fit: 'crop',
      background: '#1e293b',
      assFile,
      fontsDir,
      output: path.join(work, 'out.mp4'),
      maxBytes: 4e9,
    }),
    { duration: seconds, fontconfigFile, timeoutMs: 3_600_000 },
  );
  const wall = (performance.now() - started) / 1000;
  return { wall, speed: seconds / wall, peakMb: peakRssKb / 1024 };
}

async function renders() {
  await mkdir(dir, { recursive: true });
  const video = path.join(dir, `src-720p-${seconds}s.mp4`);
  const audio = path.join(dir, `src-${seconds}s.m4a`);
  // A moving 720p30 picture (x264 works as on real footage, not on a still) and a tone.
  execFileSync(ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=s=1280x720:r=30:d=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=f=440:d=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '18',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    video,
  ]);
  execFileSync(ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=f=300:d=${seconds}`,
    '-c:a',
    'aac',
    audio,
  ]);
  console.log(`\nRender: ${seconds} s of 720p30, x264 veryfast CRF 23, ${os.availableParallelism()} cores`);
  console.log('case                      wall s   × real time   peak RSS MB');
  const cases: [string, string, boolean, RenderPreset, RenderShape][] = [
    ['classic 16:9', video, true, 'classic', 'original'],
    ['boxed 16:9', video, true, 'boxed', 'original'],
    ['social 16:9', video, true, 'social', 'original'],
    ['karaoke 16:9', video, true, 'karaoke', 'original'],
    ['karaoke 9:16 crop', video, true, 'karaoke', '9:16'],
    ['classic audio-only', audio, false, 'classic', 'original'],
  ];
  for (const [label, input, hasVideo, preset, shape] of cases) {
    const r = await renderOnce(input, hasVideo, preset, shape);
    console.log(
      `${label.padEnd(24)} ${r.wall.toFixed(1).padStart(7)}   ${r.speed.toFixed(2).padStart(10)}×   ${r.peakMb.toFixed(0).padStart(10)}`,
    );
  }
}

async function translation() {
  const server = await startChatServer();
  // Answers every batch at once, streamed in 8 pieces: what remains is our own work.
  server.reply((req: ChatRequest, res) => {
    const { segments } = JSON.parse(req.body.messages.find((m) => m.role === 'user')!.content) as {
      segments: { n: number; text: string }[];
    };
    const body = JSON.stringify({ translations: segments.map((s) => ({ n: s.n, text: `ES ${s.text}` })) });
    const size = Math.ceil(body.length / 8);
    return streamed(Array.from({ length: 8 }, (_, i) => body.slice(i * size, (i + 1) * size)))(req, res);
  });
  const model = createOpenAiModel({ baseUrl: server.url, apiKey: 'x', model: 'fake' });
  const texts = segmentsFor(3600).map((s) => s.text + ', and that is what we agreed on last week.');
  let done = 0;
  const started = performance.now();
  await translateSegments(model, {
    texts,
    indices: texts.map((_, i) => i),
    target: { name: 'Spanish', code: 'es' },
    glossary: [{ source: 'ClipScribe', target: null }],
    onSegment: () => void done++,
  });
  const ms = performance.now() - started;
  await server.close();
  const batches = server.requests.length;
  console.log(
    `\nTranslation overhead: one hour, ${texts.length} segments, ${texts.join('').length} characters`,
  );
  console.log(
    `batches ${batches}, segments translated ${done}, total ${ms.toFixed(0)} ms, ${(ms / batches).toFixed(1)} ms per batch (fake answers at once)`,
  );
}

if (!args.includes('--no-render')) await renders();
await translation();
