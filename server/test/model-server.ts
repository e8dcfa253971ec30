// A local HTTP server standing in for the model repository (Hugging Face or a mirror): serves files
// with Content-Length, ETag and single byte ranges (206 / 416, If-Range), and can break a response
// off after some bytes, the way a dropped connection does.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ModelServer {
  /** Base URL to put in WHISPER_MODEL_BASE_URL (files are served under it by name). */
  baseUrl: string;
  files: Map<string, Buffer>;
  /** Every request: path and Range header. */
  requests: { path: string; range: string | undefined; ifRange: string | undefined }[];
  /** The next responses of this file stop after this many body bytes (then the socket is destroyed). */
  cutAfter: Map<string, number>;
  /** Milliseconds to wait between 64 KiB writes (slow downloads for progress tests). */
  delayMs: number;
  /** While true, responses stop after their first 64 KiB and wait (a download in progress). */
  paused: boolean;
  close(): Promise<void>;
}

const etagOf = (body: Buffer) => `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;

export async function startModelServer(prefix = '/models'): Promise<ModelServer> {
  const files = new Map<string, Buffer>();
  const requests: ModelServer['requests'] = [];
  const cutAfter = new Map<string, number>();
  const state = { delayMs: 0, paused: false };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const range = req.headers.range;
    const ifRange = req.headers['if-range'] as string | undefined;
    requests.push({ path: url, range, ifRange });
    const name = url.startsWith(`${prefix}/`) ? decodeURIComponent(url.slice(prefix.length + 1)) : '';
    const body = files.get(name);
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const etag = etagOf(body);
    let start = 0;
    let status = 200;
    const headers: Record<string, string | number> = {
      'content-type': 'application/octet-stream',
      etag,
      'accept-ranges': 'bytes',
    };
    const m = range ? /^bytes=(\d+)-$/.exec(range) : null;
    if (m && (!ifRange || ifRange === etag)) {
      start = Number(m[1]);
      if (start >= body.length) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      status = 206;
      headers['content-range'] = `bytes ${start}-${body.length - 1}/${body.length}`;
    }
    const slice = body.subarray(start);
    headers['content-length'] = slice.length;
    res.writeHead(status, headers);
    const cut = cutAfter.get(name);
    const limit = cut === undefined ? slice.length : Math.min(cut, slice.length);
    for (let off = 0; off < limit; off += 64 * 1024) {
      const piece = slice.subarray(off, Math.min(limit, off + 64 * 1024));
      if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
      if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
      while (state.paused && !res.destroyed) await new Promise((resolve) => setTimeout(resolve, 20));
      if (res.destroyed) return;
    }
    if (limit < slice.length) {
      // A dropped connection: the client sees the body end before Content-Length.
      res.destroy();
      return;
    }
    res.end();
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${prefix}`,
    files,
    requests,
    cutAfter,
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    get paused() {
      return state.paused;
    },
    set paused(on: boolean) {
      state.paused = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const sha1Of = (body: Buffer) => createHash('sha1').update(body).digest('hex');
