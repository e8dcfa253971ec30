import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// s3rver: a local server speaking the S3 REST protocol (the real peer cannot run here).
import S3rver from 's3rver';
import { createLocalStorage } from './local-storage';
import { createServer, type Socket } from 'node:net';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { isDependencyOutage, outageOf } from '../../outage';
import { waitFor } from '../../test/wait';
import { createS3Storage } from './s3-storage';
import type { Storage } from './storage';

const root = mkdtempSync(path.join(os.tmpdir(), 'storage-test-'));
let s3server: S3rver;
let s3: Storage;
let s3port = 0;

/** An S3 client of `bucket` at a local port, with the credentials s3rver takes. */
const s3At = (port: number, extra: Partial<Parameters<typeof createS3Storage>[0]> = {}) =>
  createS3Storage({
    bucket: 'media',
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    ...extra,
  });

/** The port of a server once it listens on a free one. */
async function listening(server: { once(e: 'listening', f: () => void): unknown; address(): unknown }) {
  await new Promise<void>((r) => server.once('listening', r));
  return (server.address() as { port: number }).port;
}

beforeAll(async () => {
  s3server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: path.join(root, 's3'),
    configureBuckets: [{ name: 'media' }],
  });
  const { port } = await s3server.run();
  s3port = port;
  s3 = s3At(port);
});
afterAll(async () => {
  await s3server?.close();
  rmSync(root, { recursive: true, force: true });
});

async function text(stream: Readable) {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

const adapters: [string, () => Storage][] = [
  ['local disk', () => createLocalStorage(path.join(root, 'local'))],
  ['S3', () => s3],
];

describe.each(adapters)('%s storage', (_name, make) => {
  it('adopts a file, serves ranges and local copies, deletes by key and by prefix', async () => {
    const storage = make();
    const src = path.join(root, `src-${Math.random()}`);
    writeFileSync(src, '0123456789abcdef');
    await storage.adoptFile(src, 'media/u1/t1');
    expect(() => readFileSync(src)).toThrow();
    expect(await storage.size('media/u1/t1')).toBe(16);
    expect(await text(await storage.read('media/u1/t1'))).toBe('0123456789abcdef');
    expect(await text(await storage.read('media/u1/t1', { start: 10, end: 12 }))).toBe('abc');
    expect(await storage.withLocalFile('media/u1/t1', async (p) => readFileSync(p, 'utf8'))).toBe(
      '0123456789abcdef',
    );

    const other = path.join(root, `src-${Math.random()}`);
    writeFileSync(other, 'x');
    await storage.adoptFile(other, 'media/u1/t2');
    const keep = path.join(root, `src-${Math.random()}`);
    writeFileSync(keep, 'y');
    await storage.adoptFile(keep, 'media/u2/t3');

    await storage.delete('media/u1/t1');
    expect(await storage.size('media/u1/t1')).toBeNull();
    await storage.deletePrefix('media/u1/');
    expect(await storage.size('media/u1/t2')).toBeNull();
    expect(await storage.size('media/u2/t3')).toBe(1);
  });

  it('lists keys under a prefix with their sizes, and checks that it can be used', async () => {
    const storage = make();
    await storage.check();
    for (const [key, body] of [
      ['media/l1/a', 'aa'],
      ['media/l1/b', 'bbb'],
      ['media/l2/c', 'c'],
    ] as const) {
      const src = path.join(root, `src-${Math.random()}`);
      writeFileSync(src, body);
      await storage.adoptFile(src, key);
    }
    const listed = async (prefix: string) => {
      const out: string[] = [];
      for await (const item of storage.list(prefix)) out.push(`${item.key}=${item.size}`);
      return out.sort();
    };
    expect(await listed('media/l1/')).toEqual(['media/l1/a=2', 'media/l1/b=3']);
    expect((await listed('media/')).filter((k) => k.startsWith('media/l'))).toEqual([
      'media/l1/a=2',
      'media/l1/b=3',
      'media/l2/c=1',
    ]);
    expect(await listed('media/none/')).toEqual([]);
  });
});

it('S3 storage refuses a bucket that does not exist at the check', async () => {
  const missing = s3At(s3port, { bucket: 'no-such-bucket' });
  await expect(missing.check()).rejects.toThrow();
});

it('S3 storage gives up on a store that accepts connections but never answers, as an outage', async () => {
  // A hung store (a stopped server, a dead link): the connection opens, no byte comes back.
  const sockets: Socket[] = [];
  const silent = createServer((s) => void sockets.push(s)).listen(0, '127.0.0.1');
  const hung = s3At(await listening(silent), { idleTimeoutMs: 300 });
  try {
    const err = await hung.size('uploads/x').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).not.toBeNull();
    expect(outageOf(err)).toBe('unavailable');
    // Tried once: the silence marked the store down, and the retry failed at once, unsent.
    expect(sockets.length).toBe(1);
  } finally {
    sockets.forEach((s) => s.destroy());
    silent.close();
  }
});

it('S3 storage: once the store stops answering, later calls fail at once until it answers again', async () => {
  let answer = false;
  let requests = 0;
  const held: ServerResponse[] = [];
  const store = createHttpServer((_req, res) => {
    requests++;
    if (!answer) return void held.push(res);
    res.statusCode = 404; // the bucket answers: no such object
    res.end();
  }).listen(0, '127.0.0.1');
  const s3 = s3At(await listening(store), { idleTimeoutMs: 300, probeEveryMs: 1_000 });
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e,
    );
  try {
    expect(outageOf(await failure(s3.size('media/a')))).toBe('unavailable');
    expect(requests).toBe(1);
    // Down: the next call does not wait for another silence, nor reach the store.
    const t0 = Date.now();
    const err = await failure(s3.size('media/b'));
    expect(Date.now() - t0).toBeLessThan(250);
    expect(outageOf(err)).toBe('unavailable');
    expect(isDependencyOutage(err)).toBe(true);
    expect(requests).toBe(1);
    // Back: the probe's answer (any answer) brings it into use again.
    answer = true;
    await waitFor(async () => ((await s3.size('media/c').catch(() => 'down')) === null ? true : undefined), {
      ms: 5_000,
      everyMs: 100,
      what: 'the store in use again',
    });
  } finally {
    held.forEach((res) => res.destroy());
    store.close();
  }
});

it('S3 storage: a reset connection is retried as before and does not mark the store down', async () => {
  // A keep-alive socket the store closed (common under load): the SDK's retry succeeds.
  let requests = 0;
  const store = createHttpServer((req, res) => {
    if (++requests === 1) return void req.socket.destroy();
    res.statusCode = 404;
    res.end();
  }).listen(0, '127.0.0.1');
  const s3 = s3At(await listening(store));
  try {
    expect(await s3.size('media/a')).toBeNull();
    expect(await s3.size('media/b')).toBeNull();
    expect(requests).toBe(3);
  } finally {
    store.close();
  }
});

it('local storage never resolves keys outside its root', async () => {
  const storage = createLocalStorage(path.join(root, 'local'));
  await expect(storage.size('../../etc/passwd')).rejects.toThrow(/Bad storage key/);
});
