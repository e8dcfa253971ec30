import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClientError, createApiClient } from './api-client';

// A real HTTP server plays the API so the client's fetch, headers and time-out really run.
let server: Server;
let base = '';
const seen: { auth?: string; body?: string; url?: string; type?: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({ auth: req.headers.authorization, body, url: req.url, type: req.headers['content-type'] });
      const path = (req.url ?? '').split('?')[0];
      const send = (status: number, payload: unknown, statusText?: string) => {
        res.statusMessage = statusText ?? res.statusMessage;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      };
      if (path === '/ok') send(200, { code: 200, message: 'ok', data: { n: 1 } });
      else if (path === '/denied') send(401, { code: 401, message: 'errors.api.unauthorized', data: null });
      else if (path === '/biz') send(200, { code: 10422, message: 'Quota exceeded', data: { left: 0 } });
      else if (path === '/plain') send(502, 'not json', 'Bad Gateway');
      else if (path === '/slow') setTimeout(() => send(200, { code: 200, message: 'ok', data: null }), 500);
      // The server's sentence is in some language; the page translates the key itself.
      else send(404, { code: 404, message: 'Introuvable.', message_key: 'errors.api.notFound', data: null });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function client(extra: Partial<Parameters<typeof createApiClient>[0]> = {}) {
  const toasts: string[] = [];
  const navigations: string[] = [];
  const api = createApiClient({
    baseUrl: base,
    fetch,
    currentPath: () => '/de/dashboard?x=1',
    toast: (m) => toasts.push(m),
    navigate: (u) => navigations.push(u),
    translate: (k) =>
      k === 'errors.requestError' ? 'Request Error' : k === 'errors.api.notFound' ? 'Not found.' : k,
    ...extra,
  });
  return { api, toasts, navigations };
}

describe('api client', () => {
  it('sends the session cookie to an API on another origin (credentials: include)', async () => {
    const calls: [string, RequestInit | undefined][] = [];
    const { api } = client({
      baseUrl: `${base}/`.replace(/\/$/, ''),
      fetch: (input, init) => {
        calls.push([String(input), init]);
        return fetch(input, init);
      },
    });
    await api.get('/ok');
    expect(calls[0]![0]).toBe(`${base}/ok`);
    expect(calls[0]![1]?.credentials).toBe('include');
  });

  it('returns data on code 200 and sends query, JSON body and bearer token', async () => {
    const { api } = client({ getToken: () => 'tok' });
    expect(await api.get('/ok', { a: 1, skip: undefined })).toEqual({ n: 1 });
    expect(seen.at(-1)?.url).toBe('/ok?a=1');
    expect(seen.at(-1)?.auth).toBe('Bearer tok');
    await api.post('/ok', { email: 'x' });
    expect(seen.at(-1)?.body).toBe('{"email":"x"}');
    expect(seen.at(-1)?.type).toBe('application/json');
  });

  it('sends form data as multipart', async () => {
    const { api } = client();
    const form = new FormData();
    form.set('f', 'v');
    await api.request('POST', '/ok', { form });
    expect(seen.at(-1)?.type).toMatch(/^multipart\/form-data/);
  });

  it('redirects to login on 401/403 with the encoded current path', async () => {
    const { api, navigations, toasts } = client();
    await expect(api.get('/denied')).rejects.toBeInstanceOf(ApiClientError);
    expect(navigations).toEqual(['/de/login?from=%2Fde%2Fdashboard%3Fx%3D1']);
    expect(toasts).toEqual([]);
  });

  it('toasts the translated server message for other codes, nothing when the caller handles errors', async () => {
    const a = client();
    await expect(a.api.get('/missing')).rejects.toMatchObject({ code: 404, message: 'Not found.' });
    expect(a.toasts).toEqual(['Not found.']);
    const b = client();
    await expect(b.api.get('/biz', undefined, { handleErrors: true })).rejects.toMatchObject({
      code: 10422,
      data: { left: 0 },
    });
    await expect(b.api.get('/denied', undefined, { handleErrors: true })).rejects.toMatchObject({
      code: 401,
    });
    expect(b.toasts).toEqual([]);
    expect(b.navigations).toEqual([]);
  });

  it('shows the status text for an HTTP error without a code', async () => {
    const { api, toasts } = client();
    await expect(api.get('/plain')).rejects.toMatchObject({ code: 502 });
    expect(toasts).toEqual(['Bad Gateway']);
  });

  it('shows Request Error on transport failure and on time-out', async () => {
    const dead = client({ baseUrl: 'http://127.0.0.1:1' });
    await expect(dead.api.get('/ok')).rejects.toMatchObject({ code: 0 });
    expect(dead.toasts).toEqual(['Request Error']);
    const slow = client({ timeoutMs: 100 });
    await expect(slow.api.get('/slow')).rejects.toMatchObject({ code: 0 });
    expect(slow.toasts).toEqual(['Request Error']);
    // A call that runs a model in the request may wait longer than the client's default.
    await expect(slow.api.get('/slow', undefined, { timeoutMs: 2000 })).resolves.toBeNull();
  });
});
