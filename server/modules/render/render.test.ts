// Captioned-video renders end to end: the API asks, the job runs the shipped static ffmpeg with
// our subtitle file and fonts, and the MP4 is checked with ffprobe and by sampling frames.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testApp } from '../../test/harness';
import { signedInUser } from '../../test/users';
import { newTranscript } from '../../test/factories';
import { renderJobs, translationTracks } from '../../db/schema';
import { processRender } from './process';
import { renderFfmpegPath } from './ffmpeg';
import { sweepExpiredRenders } from './files';
import type { Segment } from '../../../common/segments';

const require = createRequire(import.meta.url);
const ffmpeg = renderFfmpegPath();
const ffprobe = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
const dir = mkdtempSync(path.join(os.tmpdir(), 'render-test-'));

const words = (start: number, text: string, each: number) =>
  text.split(' ').map((w, i) => ({ start: start + i * each, end: start + (i + 1) * each, text: w }));
const SEGMENTS: Segment[] = [
  { start: 0, end: 2, text: 'Hello brave new world', words: words(0, 'Hello brave new world', 0.5) },
  { start: 2, end: 4, text: 'こんにちは世界' },
  { start: 4, end: 6, text: 'مرحبا بالعالم' },
];

let h: Awaited<ReturnType<typeof testApp>>;
let video: string;
let audio: string;

beforeAll(async () => {
  h = await testApp();
  video = path.join(dir, 'src.mp4');
  audio = path.join(dir, 'src.m4a');
  // A plain blue picture: caption pixels (white, yellow) are easy to tell from it.
  execFileSync(ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=0x2050a0:s=640x360:r=25:d=6',
    '-f',
    'lavfi',
    '-i',
    'sine=f=440:d=6',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    video,
  ]);
  execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=300:d=6', '-c:a', 'aac', audio]);
}, 180_000);

afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function transcriptWith(rankName: string, file: string, hasVideo: boolean) {
  const user = await signedInUser(h.db, { rankName });
  const t = await newTranscript(h.db, user.user.id, {
    status: 'done',
    durationSec: 6,
    hasVideo,
    language: 'auto',
    segments: SEGMENTS,
    mediaKey: `media/${user.user.id}/${crypto.randomUUID()}`,
  });
  await h.deps.services.render.storage.putFile(file, t.mediaKey!);
  return { user, t };
}

/** Asks for a render through the API and runs its job here. */
async function render(rankName: string, body: unknown, file = video, hasVideo = true) {
  const { user, t } = await transcriptWith(rankName, file, hasVideo);
  const { res, json } = await h.api('POST', `/transcripts/${t.id}/renders`, user.headers, body);
  expect(res.status, JSON.stringify(json)).toBe(200);
  await processRender(h.deps.services.render, json.data.id, {
    signal: new AbortController().signal,
    attempt: 1,
    maxAttempts: 3,
  });
  const got = await h.api('GET', `/renders/${json.data.id}`, user.headers);
  expect(got.json.data.status, JSON.stringify(got.json.data)).toBe('done');
  const file2 = await h.app.request(got.json.data.file_url + '?download=1', { headers: user.headers });
  expect(file2.status).toBe(200);
  expect(file2.headers.get('content-disposition')).toMatch(/attachment/);
  const out = path.join(dir, `${json.data.id}.mp4`);
  const bytes = Buffer.from(await file2.arrayBuffer());
  require('node:fs').writeFileSync(out, bytes);
  return { out, data: got.json.data, bytes, user, transcript: t };
}

function probe(file: string) {
  return JSON.parse(
    execFileSync(ffprobe, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file], {
      encoding: 'utf8',
    }),
  ) as {
    format: { duration: string; size: string };
    streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
  };
}

/** One frame as RGB bytes. */
function frameAt(file: string, t: number, w: number, hgt: number): Buffer {
  const buf = execFileSync(
    ffmpeg,
    [
      '-v',
      'error',
      '-ss',
      String(t),
      '-i',
      file,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { maxBuffer: 64 << 20 },
  );
  expect(buf.length).toBe(w * hgt * 3);
  return buf;
}

type Region = { x0: number; y0: number; x1: number; y1: number };
/** Pixels in a region (fractions of the frame) that pass `test`. */
function count(
  buf: Buffer,
  w: number,
  hgt: number,
  r: Region,
  test: (r: number, g: number, b: number) => boolean,
) {
  let n = 0;
  for (let y = Math.floor(r.y0 * hgt); y < Math.floor(r.y1 * hgt); y++) {
    for (let x = Math.floor(r.x0 * w); x < Math.floor(r.x1 * w); x++) {
      const i = (y * w + x) * 3;
      if (test(buf[i]!, buf[i + 1]!, buf[i + 2]!)) n++;
    }
  }
  return n;
}
const white = (r: number, g: number, b: number) => r > 200 && g > 200 && b > 200;
const yellow = (r: number, g: number, b: number) => r > 200 && g > 160 && b < 90;
const BOTTOM: Region = { x0: 0, y0: 0.7, x1: 1, y1: 1 };
const TOP: Region = { x0: 0, y0: 0, x1: 1, y1: 0.55 };
const CORNER: Region = { x0: 0.55, y0: 0, x1: 1, y1: 0.12 };

describe('captioned video render', () => {
  it('burns Latin, Japanese and Arabic captions into an H.264/AAC MP4 (Free: mark and cap)', async () => {
    const { out, data, bytes } = await render('Free', { style: { preset: 'classic', size: 100 } });
    const info = probe(out);
    expect(Number(info.format.duration)).toBeGreaterThan(5.5);
    expect(Number(info.format.duration)).toBeLessThan(6.5);
    expect(Number(info.format.size)).toBe(bytes.length);
    expect(data.size).toBe(bytes.length);
    const v = info.streams.find((s) => s.codec_type === 'video')!;
    expect(v.codec_name).toBe('h264');
    expect([v.width, v.height]).toEqual([640, 360]);
    expect(info.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    expect(data.watermark).toBe(true);
    // Each line draws white text at the bottom and nothing in the middle of the picture.
    for (const t of [1, 3, 5]) {
      const frame = frameAt(out, t, 640, 360);
      expect(count(frame, 640, 360, BOTTOM, white), `caption at ${t}s`).toBeGreaterThan(150);
      expect(count(frame, 640, 360, TOP, white)).toBe(0);
      // The "Made with" mark in the top right corner.
      expect(count(frame, 640, 360, CORNER, (r, g, b) => r > 150 && g > 150 && b > 150)).toBeGreaterThan(5);
    }
  }, 60_000);

  it('has no mark on a paid plan, and 9:16 output is 360×640 with the captions centred (social)', async () => {
    const { out, data } = await render('STARTER', { style: { preset: 'social' }, shape: '9:16', fit: 'pad' });
    expect(data.watermark).toBe(false);
    const v = probe(out).streams.find((s) => s.codec_type === 'video')!;
    expect([v.width, v.height]).toEqual([360, 640]);
    const frame = frameAt(out, 1, 360, 640);
    expect(
      count(
        frame,
        360,
        640,
        { x0: 0.55, y0: 0, x1: 1, y1: 0.12 },
        (r, g, b) => r > 150 && g > 150 && b > 150,
      ),
    ).toBe(0);
    expect(count(frame, 360, 640, { x0: 0, y0: 0.35, x1: 1, y1: 0.65 }, white)).toBeGreaterThan(150);
  }, 60_000);

  it('karaoke: the highlight moves on with the spoken words', async () => {
    const { out } = await render('STARTER', { style: { preset: 'karaoke' }, start: 0, end: 2 });
    expect(Number(probe(out).format.duration)).toBeLessThan(2.5);
    const early = count(frameAt(out, 0.3, 640, 360), 640, 360, BOTTOM, yellow);
    const late = count(frameAt(out, 1.7, 640, 360), 640, 360, BOTTOM, yellow);
    expect(early).toBeGreaterThan(20);
    expect(late).toBeGreaterThan(early * 2);
  }, 60_000);

  it('an audio-only source gets a coloured background with a waveform', async () => {
    const { out } = await render('STARTER', { background: '#aa2200', shape: '1:1' }, audio, false);
    const v = probe(out).streams.find((s) => s.codec_type === 'video')!;
    expect([v.width, v.height]).toEqual([720, 720]);
    const frame = frameAt(out, 1, 720, 720);
    const red = count(
      frame,
      720,
      720,
      { x0: 0, y0: 0, x1: 1, y1: 0.2 },
      (r, g, b) => r > 140 && g < 60 && b < 40,
    );
    expect(red).toBeGreaterThan(720 * 100);
    expect(count(frame, 720, 720, BOTTOM, white)).toBeGreaterThan(150);
  }, 60_000);

  it("an audio-only source can use the workspace's picture: checked on upload, covering the frame", async () => {
    const { user, t } = await transcriptWith('STARTER', audio, false);
    const owner = user;
    const put = (name: string, bytes: Buffer, type: string, who = user) => {
      const form = new FormData();
      form.set('file', new File([new Uint8Array(bytes)], name, { type }));
      return h.app.request('/self-api/v1/render-background', {
        method: 'PUT',
        headers: who.headers,
        body: form,
      });
    };
    const picture = (args: string[], ext: string) => {
      const out = path.join(dir, `${crypto.randomUUID()}.${ext}`);
      execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', ...args, out]);
      return require('node:fs').readFileSync(out) as Buffer;
    };
    // Not a picture, a video named .png, an animation, too many pixels, too many bytes: refused.
    const refused = async (res: Response, status: number, code: number) => {
      const json = (await res.json()) as { code: number; message_key: string };
      expect(res.status, JSON.stringify(json)).toBe(status);
      expect(json.code).toBe(code);
    };
    await refused(await put('a.png', Buffer.from('<svg onload=alert(1)>'), 'image/png'), 422, 42272);
    await refused(
      await put('clip.png', require('node:fs').readFileSync(video) as Buffer, 'image/png'),
      422,
      42272,
    );
    const gif = picture(['-i', 'testsrc=s=64x64:r=5:d=1', '-f', 'gif'], 'gif');
    await refused(await put('a.gif', gif, 'image/gif'), 422, 42272);
    const huge = picture(['-i', 'color=c=black:s=8200x16', '-frames:v', '1'], 'png');
    await refused(await put('wide.png', huge, 'image/png'), 422, 42273);
    await refused(await put('big.png', Buffer.alloc(5 * 1024 * 1024 + 1, 1), 'image/png'), 413, 413);
    // None yet: a render asking for it is refused with a reason.
    const ask = () =>
      h.api('POST', `/transcripts/${t.id}/renders`, owner.headers, {
        background_image: true,
        background: '#aa2200',
        shape: '1:1',
        end: 3,
      });
    expect((await ask()).json.code).toBe(40473);

    // A green PNG: stored (as a JPEG), shown back, and drawn behind the waveform and captions.
    const green = picture(['-i', 'color=c=0x20c040:s=400x300', '-frames:v', '1'], 'png');
    const ok = await put('cover.png', green, 'image/png');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { data: unknown }).data).toMatchObject({ width: 400, height: 300 });
    const shown = await h.app.request('/self-api/v1/render-background', { headers: owner.headers });
    expect(shown.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await shown.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // Another account's workspace has none of it.
    const other = await signedInUser(h.db);
    expect((await h.app.request('/self-api/v1/render-background', { headers: other.headers })).status).toBe(
      404,
    );

    const asked = await ask();
    expect(asked.res.status, JSON.stringify(asked.json)).toBe(200);
    await processRender(h.deps.services.render, asked.json.data.id, {
      signal: new AbortController().signal,
      attempt: 1,
      maxAttempts: 3,
    });
    const [row] = await h.db.select().from(renderJobs).where(eq(renderJobs.id, asked.json.data.id));
    expect(row!.status).toBe('done');
    const file = await h.app.request(`/self-api/v1/renders/${row!.id}/file`, { headers: owner.headers });
    const out = path.join(dir, 'picture.mp4');
    require('node:fs').writeFileSync(out, Buffer.from(await file.arrayBuffer()));
    const frame = frameAt(out, 1, 720, 720);
    const greenish = (r: number, g: number, b: number) => g > 150 && r < 80 && b < 110;
    const red = (r: number, g: number, b: number) => r > 140 && g < 60 && b < 40;
    // The picture covers the top of the square frame (not the colour), the captions stay white.
    expect(count(frame, 720, 720, { x0: 0, y0: 0, x1: 1, y1: 0.2 }, greenish)).toBeGreaterThan(720 * 100);
    expect(count(frame, 720, 720, { x0: 0, y0: 0, x1: 1, y1: 0.2 }, red)).toBe(0);
    expect(count(frame, 720, 720, BOTTOM, white)).toBeGreaterThan(150);

    // Removed: asking for it is refused again.
    expect((await h.api('DELETE', '/render-background', owner.headers)).res.status).toBe(200);
    expect((await ask()).json.code).toBe(40473);
  }, 90_000);

  it("burns a translation track's text in, with the original's timings", async () => {
    const { user, t } = await transcriptWith('STARTER', video, true);
    const [track] = await h.db
      .insert(translationTracks)
      .values({
        workspaceId: t.workspaceId,
        userId: user.user.id,
        transcriptId: t.id,
        language: 'ja',
        status: 'done',
        texts: ['こんにちは、世界', '', ''],
      })
      .returning();
    const { res, json } = await h.api('POST', `/transcripts/${t.id}/renders`, user.headers, {
      track: track!.id,
      style: { size: 100 },
      end: 4,
    });
    expect(res.status, JSON.stringify(json)).toBe(200);
    await processRender(h.deps.services.render, json.data.id, {
      signal: new AbortController().signal,
      attempt: 1,
      maxAttempts: 3,
    });
    const [row] = await h.db.select().from(renderJobs).where(eq(renderJobs.id, json.data.id));
    expect(row!.status).toBe('done');
    const file = await h.app.request(`/self-api/v1/renders/${row!.id}/file`, { headers: user.headers });
    const out = path.join(dir, 'track.mp4');
    require('node:fs').writeFileSync(out, Buffer.from(await file.arrayBuffer()));
    // The first segment's translation shows at 1 s; the empty second one leaves 3 s clean.
    expect(count(frameAt(out, 1, 640, 360), 640, 360, BOTTOM, white)).toBeGreaterThan(150);
    expect(count(frameAt(out, 3, 640, 360), 640, 360, BOTTOM, white)).toBe(0);
  }, 60_000);

  it('cancel stops a waiting render; quota and permissions are checked', async () => {
    const { user, t } = await transcriptWith('Free', video, true);
    const first = await h.api('POST', `/transcripts/${t.id}/renders`, user.headers, {});
    expect(first.res.status).toBe(200);
    // One at a time per transcript.
    const second = await h.api('POST', `/transcripts/${t.id}/renders`, user.headers, {});
    expect(second.json.code).toBe(40973);
    const canceled = await h.api('POST', `/renders/${first.json.data.id}/cancel`, user.headers);
    expect(canceled.json.data.status).toBe('canceled');
    await processRender(h.deps.services.render, first.json.data.id, {
      signal: new AbortController().signal,
      attempt: 1,
      maxAttempts: 3,
    });
    const [row] = await h.db.select().from(renderJobs).where(eq(renderJobs.id, first.json.data.id));
    expect(row!.status).toBe('canceled');
    const again = await h.api('POST', `/renders/${first.json.data.id}/cancel`, user.headers);
    expect(again.json.code).toBe(40971);
    const notDone = await h.app.request(`/self-api/v1/renders/${first.json.data.id}/file`, {
      headers: user.headers,
    });
    expect(notDone.status).toBe(409);
    // Someone else sees neither the transcript nor the render.
    const other = await signedInUser(h.db);
    expect((await h.api('POST', `/transcripts/${t.id}/renders`, other.headers, {})).res.status).toBe(404);
    expect((await h.api('GET', `/renders/${first.json.data.id}`, other.headers)).res.status).toBe(404);
    // Bad input is a 422, never a 500; a track that does not exist a 404.
    expect(
      (
        await h.api('POST', `/transcripts/${t.id}/renders`, user.headers, {
          style: { text_color: 'red; drop' },
        })
      ).res.status,
    ).toBe(422);
    expect(
      (await h.api('POST', `/transcripts/${t.id}/renders`, user.headers, { style: { font: 'Comic Sans' } }))
        .res.status,
    ).toBe(422);
    expect(
      (await h.api('POST', `/transcripts/${t.id}/renders`, user.headers, { track: 'nope' })).res.status,
    ).toBe(404);
    // A custom plan with 0.05 render minutes left: a 6 s render does not fit.
    const tight = await signedInUser(h.db, {
      rankName: 'Enterprise',
      customLimits: { render_minutes_per_month: 0.05 },
    });
    const t2 = await newTranscript(h.db, tight.user.id, {
      status: 'done',
      durationSec: 6,
      segments: SEGMENTS,
      mediaKey: 'media/x/y',
    });
    const quota = await h.api('POST', `/transcripts/${t2.id}/renders`, tight.headers, {});
    expect(quota.json.code).toBe(40371);
    expect(quota.json.data.minutes_left).toBe(0);
  }, 60_000);

  it('a preview is three seconds from where it starts; the list says what the month leaves; events end with the render', async () => {
    const { user, t } = await transcriptWith('Free', video, true);
    const { json } = await h.api('POST', `/transcripts/${t.id}/renders`, user.headers, {
      preview: true,
      start: 1,
      end: 6,
      style: { preset: 'karaoke' },
    });
    expect(json.data).toMatchObject({ preview: true, duration_sec: 3 });
    const list = await h.api('GET', `/transcripts/${t.id}/renders`, user.headers);
    expect(list.json.data.items.map((r: { id: string }) => r.id)).toEqual([json.data.id]);
    // 3 s of Free's 10 minutes: 0.05 min, shown as 0.1 used and 9.9 left (never more than is left).
    expect(list.json.data.quota).toEqual({
      minutes_per_month: 10,
      minutes_used: 0.1,
      minutes_left: 9.9,
      max_resolution: 720,
      watermark: true,
    });
    await processRender(h.deps.services.render, json.data.id, {
      signal: new AbortController().signal,
      attempt: 1,
      maxAttempts: 3,
    });
    const res = await h.app.request(`/self-api/v1/renders/${json.data.id}/events`, { headers: user.headers });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const text = await res.text();
    expect(text).toMatch(/^event: snapshot/m);
    const snapshot = JSON.parse(/^data: (.*)$/m.exec(text)![1]!) as { status: string; file_url: string };
    expect(snapshot.status).toBe('done');
    const file = await h.app.request(snapshot.file_url, { headers: user.headers });
    const out = path.join(dir, 'preview.mp4');
    require('node:fs').writeFileSync(out, Buffer.from(await file.arrayBuffer()));
    expect(Math.abs(Number(probe(out).format.duration) - 3)).toBeLessThan(0.5);
    const other = await signedInUser(h.db);
    expect(
      (await h.app.request(`/self-api/v1/renders/${json.data.id}/events`, { headers: other.headers })).status,
    ).toBe(404);
  }, 60_000);

  it('render files go with their transcript, and expire after 30 days (previews after an hour)', async () => {
    const storage = h.deps.services.render.storage;
    // A real render, then its transcript deleted through the API: the MP4 is gone too.
    const made = await render('STARTER', { end: 2 });
    const [row] = await h.db.select().from(renderJobs).where(eq(renderJobs.id, made.data.id));
    expect(await storage.size(row!.outputKey!)).toBeGreaterThan(1000);
    const del = await h.api('DELETE', `/transcripts/${made.transcript.id}`, made.user.headers);
    expect(del.res.status).toBe(200);
    expect(await storage.size(row!.outputKey!)).toBeNull();

    // The hourly sweep: old videos and previews lose their file, recent ones keep it.
    const { user, t } = await transcriptWith('Free', video, true);
    const day = 86_400_000;
    const now = Date.now();
    const aged = async (ageMs: number, preview: boolean) => {
      const id = crypto.randomUUID();
      const key = `media/${user.user.id}/renders/${id}.mp4`;
      await storage.putFile(video, key);
      await h.db.insert(renderJobs).values({
        id,
        workspaceId: t.workspaceId,
        userId: user.user.id,
        transcriptId: t.id,
        options: { preview } as never,
        status: 'done',
        durationSec: 3,
        maxResolution: 720,
        outputKey: key,
        createdAt: new Date(now - ageMs),
        finishedAt: new Date(now - ageMs),
      });
      return { id, key };
    };
    const old = await aged(31 * day, false);
    const recent = await aged(29 * day, false);
    const oldPreview = await aged(2 * 3_600_000, true);
    const newPreview = await aged(10 * 60_000, true);
    expect(await sweepExpiredRenders(h.deps.services.transcription)).toBe(2);
    expect(await storage.size(old.key)).toBeNull();
    expect(await storage.size(oldPreview.key)).toBeNull();
    expect(await storage.size(recent.key)).toBeGreaterThan(0);
    expect(await storage.size(newPreview.key)).toBeGreaterThan(0);
    // The row stays (history, minutes of the month) without a file to download.
    const got = await h.api('GET', `/renders/${old.id}`, user.headers);
    expect(got.json.data).toMatchObject({ status: 'done', file_url: null });
    expect(
      (await h.app.request(`/self-api/v1/renders/${old.id}/file`, { headers: user.headers })).status,
    ).toBe(409);
    expect(await sweepExpiredRenders(h.deps.services.transcription)).toBe(0);
  }, 60_000);
});
