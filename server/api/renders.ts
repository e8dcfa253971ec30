import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { streamSSE } from 'hono/streaming';
import type { AppEnv } from '../http/app-env';
import { requireActor } from '../http/current-actor';
import { uuidParam } from '../http/current-user';
import { readBody } from '../http/validate';
import { serveMedia } from '../http/serve-media';
import { ok } from '../../common/envelope';
import { renderRequestSchema } from '../../common/render-options';
import { renderFor, renderNotFound } from '../modules/render/access';
import {
  deleteRenderBackground,
  renderBackgroundFile,
  setRenderBackground,
} from '../modules/render/background';
import { cancelRender } from '../modules/render/cancel';
import { createRender } from '../modules/render/create';
import { listRenders, renderFile } from '../modules/render/list';
import { renderJson } from '../modules/render/payload';
import { renderEvents } from '../modules/render/live';
import type { RenderDeps } from '../modules/render/deps';
import { transcriptNotFound } from '../modules/transcription/ownership';

/** A background picture for audio-only renders (multipart; checked by ffprobe in the module). */
export const backgroundSchema = z.object({ file: z.instanceof(File, { message: 'validation.required' }) });

/** /self-api/v1: captioned videos of a transcript (docs/decisions/0029-captioned-video.md). */
export function rendersApi() {
  const api = new Hono<AppEnv>();
  const deps = (c: Context<AppEnv>): RenderDeps => c.get('deps').services.render;

  api.post('/transcripts/:id/renders', async (c) => {
    const actor = await requireActor(c);
    const id = uuidParam(c, 'id', transcriptNotFound);
    const request = await readBody(c, renderRequestSchema);
    const row = await createRender(deps(c), actor, id, request);
    return c.json(ok(renderJson(row)));
  });

  api.get('/transcripts/:id/renders', async (c) => {
    const actor = await requireActor(c);
    const id = uuidParam(c, 'id', transcriptNotFound);
    const { rows, quota } = await listRenders(deps(c), actor, id);
    return c.json(ok({ items: rows.map(renderJson), quota }));
  });

  api.get('/renders/:id', async (c) => {
    const actor = await requireActor(c);
    const row = await renderFor(deps(c).db, actor, uuidParam(c, 'id', renderNotFound), 'transcript.read');
    return c.json(ok(renderJson(row)));
  });

  // Progress as it happens (server-sent events) until the render ends.
  api.get('/renders/:id/events', async (c) => {
    const actor = await requireActor(c);
    const source = await renderEvents(deps(c), actor, uuidParam(c, 'id', renderNotFound));
    return streamSSE(c, async (stream) => {
      for await (const msg of source(c.req.raw.signal)) await stream.writeSSE(msg);
    });
  });

  api.post('/renders/:id/cancel', async (c) => {
    const actor = await requireActor(c);
    const row = await cancelRender(deps(c), actor, uuidParam(c, 'id', renderNotFound));
    return c.json(ok(renderJson(row)));
  });

  // The MP4, with ranges (the page plays it) and ?download=1 for an attachment.
  api.get('/renders/:id/file', async (c) => {
    const actor = await requireActor(c);
    const d = deps(c);
    const file = await renderFile(d, actor, uuidParam(c, 'id', renderNotFound));
    return serveMedia(c, d.storage, { mediaKey: file.key, mediaType: 'video/mp4', mediaName: file.filename });
  });
  // The current workspace's picture behind audio-only videos: shown, replaced, removed.
  api.get('/render-background', async (c) => {
    const actor = await requireActor(c);
    const file = await renderBackgroundFile(deps(c), actor);
    return new Response(Readable.toWeb(file.body) as ReadableStream, {
      headers: {
        'Content-Type': 'image/jpeg',
        'Content-Length': String(file.size),
        'Cache-Control': 'private, no-cache',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });

  api.put('/render-background', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, backgroundSchema);
    return c.json(ok(await setRenderBackground(deps(c), actor, body.file)));
  });

  api.delete('/render-background', async (c) => {
    const actor = await requireActor(c);
    await deleteRenderBackground(deps(c), actor);
    return c.json(ok(null));
  });
  return api;
}
