import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, isRefusedAddress, parseAllowance } from './address';
import { OutboundError } from './destination';
import { safeFetch } from './safe-fetch';

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/ok') return res.end('hello');
    if (url.pathname === '/echo') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => res.end(`${req.method} ${body}`));
      return;
    }
    if (url.pathname === '/to-ok') return res.writeHead(302, { location: '/ok' }).end();
    if (url.pathname === '/to-metadata')
      return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (url.pathname === '/to-localhost-name')
      return res.writeHead(301, { location: `http://localhost:${url.searchParams.get('port')}/ok` }).end();
    if (url.pathname === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (url.pathname === '/big') return res.end(Buffer.alloc(50_000));
    if (url.pathname === '/slow') {
      res.write('a');
      return; // never ends
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

async function reason(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (err instanceof OutboundError) return err.reason;
    throw err;
  }
  return 'no error';
}

describe('refused addresses', () => {
  it('are loopback, private, link-local, metadata, multicast and their IPv6 forms', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a9fe:a9fe',
      '[::1]',
    ]) {
      expect(isRefusedAddress(a), a).toBe(true);
    }
  });
  it('let public addresses through', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isRefusedAddress(a), a).toBe(false);
    }
  });
});

describe('ALLOW_PRIVATE_URLS', () => {
  it('is off, all, or a list of addresses and ranges', () => {
    expect(parseAllowance(undefined)).toBe(false);
    expect(parseAllowance('true')).toBe(true);
    expect(parseAllowance('127.0.0.1, 10.0.0.0/8')).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(addressAllowed('10.2.3.4', ['10.0.0.0/8'])).toBe(true);
    expect(addressAllowed('169.254.169.254', ['10.0.0.0/8'])).toBe(false);
    expect(addressAllowed('8.8.8.8', false)).toBe(true);
  });
});

describe('safeFetch', () => {
  it('refuses a loopback address literal, and a name resolving to loopback, without the setting', async () => {
    expect(await reason(safeFetch(`${base}/ok`))).toBe('blocked_address');
    const port = new URL(base).port;
    expect(await reason(safeFetch(`http://localhost:${port}/ok`))).toBe('blocked_address');
    expect(await reason(safeFetch(`http://[::ffff:127.0.0.1]:${port}/ok`))).toBe('blocked_address');
  });

  it('refuses other schemes and credentials in the address', async () => {
    expect(await reason(safeFetch('file:///etc/passwd'))).toBe('bad_url');
    expect(await reason(safeFetch('ftp://example.com/a'))).toBe('bad_url');
    expect(await reason(safeFetch('http://user:pw@example.com/'))).toBe('bad_url');
    expect(await reason(safeFetch('not a url'))).toBe('bad_url');
  });

  it('fetches with ALLOW_PRIVATE_URLS and follows a redirect', async () => {
    const res = await safeFetch(`${base}/to-ok`, { allowPrivate: true });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${base}/ok`);
    expect(await res.text()).toBe('hello');
  });

  it('checks every redirect: to the metadata address is refused', async () => {
    // Only this test server's address is allowed: the hop to the metadata service is refused,
    // and so is one to a name that resolves to another loopback form.
    const only = ['127.0.0.1'];
    expect(await reason(safeFetch(`${base}/to-metadata`, { allowPrivate: only }))).toBe('blocked_address');
    expect(await reason(safeFetch(`${base}/to-ok`, { allowPrivate: only }).then((r) => r.text()))).toBe(
      'no error',
    );
    expect(await reason(safeFetch(`${base}/to-metadata`, { allowPrivate: ['10.0.0.0/8'] }))).toBe(
      'blocked_address',
    );
    const hop = await reason(
      safeFetch(`${base}/to-metadata`, { allowPrivate: true, maxRedirects: 0 }).then((r) => {
        expect(r.status).toBe(302);
        r.close();
      }),
    );
    expect(hop).toBe('no error');
  });

  it('limits redirects, bytes and time', async () => {
    expect(await reason(safeFetch(`${base}/loop`, { allowPrivate: true, maxRedirects: 3 }))).toBe(
      'too_many_redirects',
    );
    const big = await safeFetch(`${base}/big`, { allowPrivate: true, maxBytes: 10_000 });
    expect(await reason(big.text())).toBe('too_large');
    const slow = await safeFetch(`${base}/slow`, { allowPrivate: true, timeoutMs: 300 });
    expect(await reason(slow.text())).toBe('timeout');
  });

  it('sends a POST body and cuts a long answer at a limit', async () => {
    const res = await safeFetch(`${base}/echo`, { allowPrivate: true, method: 'POST', body: 'x=1' });
    expect(await res.text()).toBe('POST x=1');
    const cut = await safeFetch(`${base}/big`, { allowPrivate: true, maxBytes: 100 });
    expect((await cut.text(10)).length).toBe(10);
  });

  it('names what went wrong: name not found, refused, closed, TLS, no answer', async () => {
    expect(await reason(safeFetch('http://nothing.invalid/', { allowPrivate: true }))).toBe('dns');
    // A port nobody listens on.
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    expect(await reason(safeFetch(`http://127.0.0.1:${port}/`, { allowPrivate: true }))).toBe('refused');
    // A server that hangs up without a word, and one that accepts but never answers.
    const rude = net.createServer((socket) => socket.destroy());
    const mute = net.createServer(() => undefined);
    await Promise.all([rude, mute].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
    const at = (s: net.Server) => `127.0.0.1:${(s.address() as AddressInfo).port}`;
    try {
      expect(await reason(safeFetch(`http://${at(rude)}/`, { allowPrivate: true }))).toBe('reset');
      expect(await reason(safeFetch(`http://${at(mute)}/`, { allowPrivate: true, timeoutMs: 300 }))).toBe(
        'timeout',
      );
      // https to a server that speaks plain HTTP: the handshake fails.
      expect(await reason(safeFetch(`${base.replace('http:', 'https:')}/ok`, { allowPrivate: true }))).toBe(
        'tls',
      );
    } finally {
      for (const s of [rude, mute]) s.close();
    }
  });
});
