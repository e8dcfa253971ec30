// Captioned-video render and translation figures on this machine (docs/decisions/0029, 0030):
//
//   1. each preset (classic, boxed, social, karaoke) burned into a 10-minute 720p30 H.264 video
//      with the shipped static ffmpeg, x264 veryfast: × real time (media seconds per wall second;
//      target > 1), ffmpeg's CPU seconds per media second (what the machine's other work cannot
//      change: × real time on two free cores is 2 / that) and its peak resident memory; plus
//      karaoke 9:16 crop and an audio-only source;
//   2. with --compare: the command as it was (scale-then-crop, AAC encoded again) and as it is
//      (crop-then-scale, AAC copied) on each case, one after the other, so both meet the same load;
//   3. translating a one-hour transcript (≈ 900 segments) through the `openai` adapter against a
//      local streaming server that answers at once: our overhead only.
//
//   flock /tmp/lock.bench npm run bench:render [-- --seconds 600] [--compare] [--only karaoke]
//
// The machine's load average is printed with every case: the wall figures are only comparable
// within one run.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { renderStyleSchema, type RenderPreset, type RenderShape } from '../common/render-options';
import type { Segment } from '../common/segments';
import { buildAss } from '../server/modules/render/ass';
import { renderArgs, renderFfmpegPath, runRender, writeFontconfig } from '../server/modules/render/ffmpeg';
import { prepareFontsDir } from '../server/modules/render/fonts';
import { AUDIO_FRAME, fitFilter, outputFrame, type Frame } from '../server/modules/render/geometry';
import { startChatServer, streamed, type ChatRequest } from '../server/test/chat-server';
import { createOpenAiModel } from '../server/modules/language-model/openai';
import { translateSegments } from '../server/modules/translation/batches';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const seconds = Number(flag('seconds', '600'));
const compare = args.includes('--compare');
const only = flag('only', '');
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

/** CPU seconds of this process's finished children (ffmpeg once it has been waited for). */
function childCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // cutime and cstime, fields 16 and 17 of stat (14 and 15 after the name), in ticks of 1/100 s.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;

/** The command as it was before the speed work: scale to cover, then crop; AAC encoded again. */
function beforeArgs(argv: string[], frame: Frame): string[] {
  const { width: w, height: h } = frame;
  return argv.map((a) =>
    a.replace(
      fitFilter(frame, 'crop'),
      `scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},setsar=1`,
    ),
  );
}

async function renderOnce(
  input: string,
  hasVideo: boolean,
  preset: RenderPreset,
  shape: RenderShape,
  variant: 'before' | 'after',
) {
  const work = path.join(dir, `w-${preset}-${shape.replace(':', 'x')}-${hasVideo ? 'v' : 'a'}-${variant}`);
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
  const cpuBefore = childCpuSeconds();
  const loadAtStart = load();
  const started = performance.now();
  const argv = renderArgs({
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
    // Both sources carry AAC, as most uploads do.
    copyAudio: variant === 'after',
  });
  const { peakRssKb } = await runRender(ffmpeg, variant === 'before' ? beforeArgs(argv, frame) : argv, {
    duration: seconds,
    fontconfigFile,
    timeoutMs: 4 * 3_600_000,
  });
  const wall = (performance.now() - started) / 1000;
  const cpu = childCpuSeconds() - cpuBefore;
  await rm(work, { recursive: true, force: true });
  return {
    wall,
    speed: seconds / wall,
    cpuPerSecond: cpu / seconds,
    peakMb: peakRssKb / 1024,
    load: loadAtStart,
  };
}

async function renders() {
  await mkdir(dir, { recursive: true });
  const video = path.join(dir, `src-720p-${seconds}s.mp4`);
  const audio = path.join(dir, `src-${seconds}s.m4a`);
  // A moving 720p30 picture (x264 works as on real footage, not on a still) and a tone; kept in
  // --dir between runs (the 10-minute source takes a while to make).
  if (!existsSync(video))
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
  if (!existsSync(audio))
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
  console.log(
    `\nRender: ${seconds} s of 720p30, x264 veryfast CRF 23, ${os.availableParallelism()} cores, load average ${load()}`,
  );
  console.log(
    'case                      variant   wall s   × real time   CPU s per s   × on 2 free cores   peak RSS MB   load',
  );
  const cases: [string, string, boolean, RenderPreset, RenderShape][] = [
    ['classic 16:9', video, true, 'classic', 'original'],
    ['boxed 16:9', video, true, 'boxed', 'original'],
    ['social 16:9', video, true, 'social', 'original'],
    ['karaoke 16:9', video, true, 'karaoke', 'original'],
    ['karaoke 9:16 crop', video, true, 'karaoke', '9:16'],
    ['classic audio-only', audio, false, 'classic', 'original'],
  ];
  for (const [label, input, hasVideo, preset, shape] of cases) {
    if (only && !label.includes(only)) continue;
    for (const variant of compare ? (['before', 'after'] as const) : (['after'] as const)) {
      const r = await renderOnce(input, hasVideo, preset, shape, variant);
      console.log(
        `${label.padEnd(24)}  ${variant.padEnd(7)} ${r.wall.toFixed(1).padStart(7)}   ${r.speed.toFixed(2).padStart(10)}×   ${r.cpuPerSecond.toFixed(3).padStart(11)}   ${(2 / r.cpuPerSecond).toFixed(2).padStart(16)}×   ${r.peakMb.toFixed(0).padStart(11)}   ${r.load}`,
      );
    }
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
  const model = createOpenAiModel({ baseUrl: server.url, apiKey: 'x', model: 'fake', allowPrivate: true });
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
