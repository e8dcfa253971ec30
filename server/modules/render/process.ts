import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { renderJobs, transcripts, translationTracks, type RenderJob } from '../../db/schema';
import { trackSegments } from '../translation/export';
import { JobInterruptedError, type JobContext } from '../jobs/queue';
import { buildAss } from './ass';
import type { RenderDeps } from './deps';
import { RenderFailure, renderArgs, runRender, writeFontconfig } from './ffmpeg';
import { prepareFontsDir } from './fonts';
import { AUDIO_FRAME, outputFrame } from './geometry';
import { probeAudioCodec, probeFrame } from './probe';
import { backgroundKey } from './background';

/** A render may take this long plus 5 s per second of media (2 cores, veryfast, 1080p: well inside). */
const BASE_TIMEOUT_MS = 120_000;
const TIMEOUT_PER_SECOND_MS = 5_000;
/** Output bound: 32 MB plus 2 MB per second (1080p veryfast CRF 23 is far below). */
const maxBytesFor = (seconds: number) => Math.round(32e6 + seconds * 2e6);

export const renderKey = (r: Pick<RenderJob, 'userId' | 'id'>) => `media/${r.userId}/renders/${r.id}.mp4`;

/**
 * The render-video job: writes the captions file and the fonts folder, runs ffmpeg on the
 * transcript's media (progress to the row, a cancel kills it), stores the MP4.
 */
export async function processRender(deps: RenderDeps, renderId: string, ctx: JobContext): Promise<void> {
  const [started] = await deps.db
    .update(renderJobs)
    .set({ status: 'running', startedAt: deps.now(), progress: 0 })
    .where(and(eq(renderJobs.id, renderId), eq(renderJobs.status, 'queued')))
    .returning();
  // Canceled (or already handled) while it waited.
  if (!started) return;
  const [transcript] = await deps.db
    .select()
    .from(transcripts)
    .where(eq(transcripts.id, started.transcriptId));
  if (!transcript?.mediaKey) return finish(deps, renderId, { status: 'failed', errorCode: 'mediaMissing' });

  // The captions' text: the transcript's, or a translation track's (same timings).
  let segments = transcript.segments;
  let language = transcript.detectedLanguage ?? (transcript.language === 'auto' ? null : transcript.language);
  if (started.options.track !== 'original') {
    const [track] = await deps.db
      .select()
      .from(translationTracks)
      .where(eq(translationTracks.id, started.options.track));
    if (!track) return finish(deps, renderId, { status: 'failed', errorCode: 'internal' });
    segments = trackSegments(transcript.segments, track);
    language = track.language;
  }

  const work = path.join(deps.tmpDir(), `render-${renderId}`);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const opts = started.options;
  const offset = opts.start ?? 0;
  const duration = started.durationSec;
  try {
    const result = await deps.storage.withLocalFile(transcript.mediaKey, async (input) => {
      const source = await probeFrame(deps.ffprobe, input);
      const audioCodec = await probeAudioCodec(deps.ffprobe, input);
      const frame = outputFrame(source ?? AUDIO_FRAME, opts.shape, started.maxResolution);
      const doc = buildAss({
        segments,
        speakers: transcript.speakers,
        language,
        style: opts.style,
        frame,
        offset,
        duration,
        watermark: started.watermark ? `Made with ${deps.appName}` : null,
      });
      const assFile = path.join(work, 'captions.ass');
      await writeFile(assFile, doc.text);
      const fontsDir = await prepareFontsDir(path.join(work, 'fonts'), doc.scripts, opts.style.font);
      const fontconfigFile = await writeFontconfig(work);
      const output = path.join(work, 'out.mp4');
      const maxBytes = maxBytesFor(duration);
      let lastWrite = 0;
      const run = (backgroundImage: string | null) =>
        runRender(
          deps.ffmpeg,
          renderArgs({
            input,
            hasVideo: !!source,
            offset,
            duration,
            frame,
            fit: opts.fit,
            background: opts.background,
            backgroundImage,
            assFile,
            fontsDir,
            output,
            maxBytes,
            copyAudio: audioCodec === 'aac',
          }),
          {
            duration,
            fontconfigFile,
            signal: ctx.signal,
            timeoutMs: BASE_TIMEOUT_MS + duration * TIMEOUT_PER_SECOND_MS,
            onProgress: (percent) => {
              const t = Date.now();
              if (t - lastWrite < 1000) return;
              lastWrite = t;
              void deps.db
                .update(renderJobs)
                .set({ progress: percent })
                .where(and(eq(renderJobs.id, renderId), eq(renderJobs.status, 'running')))
                .catch(() => undefined);
            },
          },
        );
      await withBackground(deps, started, !source, run);
      const size = (await stat(output)).size;
      if (size >= maxBytes) throw new RenderFailure('tooLarge', `output reached ${size} bytes`);
      return { output, size, frame };
    });
    const key = renderKey(started);
    await deps.storage.putFile(result.output, key);
    const [done] = await deps.db
      .update(renderJobs)
      .set({
        status: 'done',
        progress: 100,
        outputKey: key,
        outputSize: result.size,
        width: result.frame.width,
        height: result.frame.height,
        finishedAt: deps.now(),
      })
      .where(and(eq(renderJobs.id, renderId), eq(renderJobs.status, 'running')))
      .returning();
    // Canceled at the last moment: the file goes with it.
    if (!done) await deps.storage.delete(key).catch(() => undefined);
  } catch (err) {
    if (err instanceof RenderFailure && err.reason === 'canceled') {
      if (ctx.signal.reason === 'shutdown') {
        await deps.db
          .update(renderJobs)
          .set({ status: 'queued', progress: 0 })
          .where(eq(renderJobs.id, renderId));
        throw new JobInterruptedError();
      }
      return finish(deps, renderId, { status: 'canceled' });
    }
    const reason = err instanceof RenderFailure ? err.reason : 'internal';
    deps.logger.warn({ renderId, err: (err as Error).message }, 'render failed');
    return finish(deps, renderId, {
      status: 'failed',
      errorCode: reason === 'media' && !transcript.mediaKey ? 'mediaMissing' : reason,
    });
  } finally {
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Runs the render with the workspace's picture on a local path when an audio-only source asks for
 * it; with the colour otherwise, or when the picture was removed after the render was asked for.
 */
async function withBackground(
  deps: RenderDeps,
  render: RenderJob,
  audioOnly: boolean,
  run: (image: string | null) => Promise<unknown>,
): Promise<void> {
  const key = backgroundKey(render.workspaceId);
  if (!audioOnly || !render.options.background_image || (await deps.storage.size(key)) === null) {
    await run(null);
    return;
  }
  await deps.storage.withLocalFile(key, (image) => run(image));
}

async function finish(
  deps: RenderDeps,
  renderId: string,
  values: { status: 'failed' | 'canceled'; errorCode?: string },
): Promise<void> {
  await deps.db
    .update(renderJobs)
    .set({ ...values, finishedAt: deps.now() })
    .where(and(eq(renderJobs.id, renderId), eq(renderJobs.status, 'running')));
}
