import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local web server for link imports: a real media file (sent in pieces, so progress shows),
 * files named by Content-Disposition, an endless stream without Content-Length, a declared size
 * above any limit, a web page, a JSON document, redirects to a refused address and to ftp, a 404
 * and a 503. `sent` counts the bytes of the endless stream that went out before the client hung up.
 */
export async function startLinkServer(
  media: Buffer,
  opts: { host?: string; pieces?: number; delayMs?: number } = {},
) {
  const host = opts.host ?? '127.0.0.1';
  const pieces = opts.pieces ?? 20;
  const delayMs = opts.delayMs ?? 15;
  const state = { endlessSent: 0, hits: new Map<string, number>() };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    state.hits.set(url.pathname, (state.hits.get(url.pathname) ?? 0) + 1);
    const port = (server.address() as AddressInfo).port;
    switch (url.pathname) {
      case '/talk.mp3':
      case '/named': {
        res.writeHead(200, {
          'content-type': url.pathname === '/named' ? 'application/octet-stream' : 'audio/mpeg',
          'content-length': String(media.length),
          ...(url.pathname === '/named'
            ? { 'content-disposition': `attachment; filename*=UTF-8''Board%20meeting%20%C3%A9t%C3%A9.mp3` }
            : {}),
        });
        const size = Math.ceil(media.length / pieces);
        let i = 0;
        const next = () => {
          if (res.destroyed) return;
          if (i >= pieces) return void res.end();
          res.write(media.subarray(i * size, (i + 1) * size));
          i++;
          setTimeout(next, delayMs);
        };
        return next();
      }
      case '/endless': {
        // No Content-Length: only the bytes themselves can tell the client it is too much.
        res.writeHead(200, { 'content-type': 'audio/mpeg' });
        const chunk = Buffer.alloc(64 * 1024, 7);
        const pump = () => {
          while (!res.destroyed && state.endlessSent < 64 * 1024 * 1024) {
            state.endlessSent += chunk.length;
            if (!res.write(chunk)) return;
          }
        };
        res.on('drain', pump);
        return pump();
      }
      case '/huge':
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(5 * 1024 * 1024 * 1024) });
        return res.write(Buffer.alloc(1024));
      case '/page.html':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end('<!doctype html><title>A page</title><p>Not a video.</p>');
      case '/watch':
      case '/watch-long':
        // A video page as yt-dlp sees one: a title, the media's address and its length.
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(
          `<!doctype html><title>Weekly podcast</title>` +
            `<meta property="og:audio" content="${url.searchParams.get('media') ?? '/talk.mp3'}">` +
            `<meta property="video:duration" content="${url.pathname === '/watch-long' ? 86400 : 3}">`,
        );
      case '/fake.mp3':
        res.writeHead(200, { 'content-type': 'audio/mpeg' });
        return res.end('this is text pretending to be audio');
      case '/doc.json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"not":"media"}');
      case '/to-private':
        // 127.0.0.2 is loopback too, but not the one address the tests allow.
        res.writeHead(302, { location: `http://127.0.0.2:${port}/talk.mp3` });
        return res.end();
      case '/to-ftp':
        res.writeHead(302, { location: `ftp://${host}/talk.mp3` });
        return res.end();
      case '/to-talk':
        res.writeHead(301, { location: '/talk.mp3' });
        return res.end();
      case '/busy':
        res.writeHead(503, { 'content-type': 'text/plain' });
        return res.end('try later');
      default:
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const base = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    base,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
