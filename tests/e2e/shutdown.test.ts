import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { startServer } from './server';

// SIGTERM: the server stops accepting, lets the request in flight finish, then exits cleanly.
describe('graceful shutdown', () => {
  it('finishes an in-flight request before exiting with code 0', async () => {
    const server = await startServer();
    const { port } = new URL(server.url);
    const body = JSON.stringify({ email: 'slow@example.com', password: 'slow request 1' });
    const exited = new Promise<number | null>((r) => server.proc.once('exit', (code) => r(code)));

    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/common-api/v1/login',
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            origin: server.url,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      // Half the body now, SIGTERM, the rest later: the request is in flight during shutdown.
      req.write(body.slice(0, 10));
      setTimeout(() => {
        server.proc.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 500);
      }, 200);
    });

    const res = await response;
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toMatchObject({ code: 40101 });
    expect(await exited).toBe(0);
    await server.stop();
  });
});
