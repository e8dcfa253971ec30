import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { PrivateAllowance } from './address';
import {
  checkOutboundUrl,
  OutboundError,
  resolveAllowed,
  type OutboundFailure,
  type ResolvedAddress,
} from './destination';

// The one way the server reaches addresses its users chose (webhook endpoints, links to import).
// Every connection's address is checked after DNS resolution, on every redirect, so neither a
// name that resolves to 127.0.0.1 nor a redirect to the metadata service gets through; the
// redirects, the bytes and the time are limited. ALLOW_PRIVATE_URLS lifts only the address check.

export interface OutboundOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Private, loopback and link-local addresses too, all or some (ALLOW_PRIVATE_URLS: development, tests). */
  allowPrivate?: PrivateAllowance;
  /** Redirects followed before giving up (0: a 3xx is the answer). */
  maxRedirects?: number;
  /** The whole exchange, body included, ends after this long. */
  timeoutMs?: number;
  /** Reading more body than this fails with 'too_large'. */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  /** Where the answer came from, after redirects. */
  url: string;
  headers: IncomingHttpHeaders;
  /** Content-Length, when the server sent one. */
  length: number | null;
  /** The body in chunks; throws OutboundError on too many bytes or the deadline. */
  body(): AsyncGenerator<Buffer>;
  /** The body as text, up to maxBytes (or the given smaller limit, then cut). */
  text(limit?: number): Promise<string>;
  /** Stops reading and closes the connection. */
  close(): void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function guardedLookup(allowPrivate: PrivateAllowance): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    resolveAllowed(hostname, allowPrivate, { family }).then(
      (list) => {
        if (options.all) return (callback as (e: null, a: ResolvedAddress[]) => void)(null, list);
        (callback as (e: null, a: string, f: number) => void)(null, list[0]!.address, list[0]!.family);
      },
      (err: Error) => (callback as (e: Error) => void)(err),
    );
  };
}

/** Sends one request with the guards above; the caller reads (or closes) the body. */
export async function safeFetch(rawUrl: string, opts: OutboundOptions = {}): Promise<OutboundResponse> {
  const allowPrivate = opts.allowPrivate ?? false;
  const maxRedirects = opts.maxRedirects ?? 5;
  const maxBytes = opts.maxBytes ?? 10 * 1024 * 1024;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new OutboundError('timeout', 'the remote server took too long')),
    opts.timeoutMs ?? 30_000,
  );
  timer.unref();
  const onOuterAbort = () => deadline.abort(opts.signal?.reason ?? new OutboundError('timeout', 'aborted'));
  if (opts.signal?.aborted) onOuterAbort();
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const finish = () => {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  };

  let url = checkOutboundUrl(rawUrl);
  let method = opts.method ?? 'GET';
  let body = opts.body;
  try {
    for (let hop = 0; ; hop++) {
      const res = await send(url, method, opts.headers ?? {}, body, allowPrivate, deadline.signal);
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode ?? 0) && location && maxRedirects > 0) {
        res.destroy();
        if (hop >= maxRedirects) throw new OutboundError('too_many_redirects', 'too many redirects');
        url = checkOutboundUrl(new URL(location, url).href);
        if (
          res.statusCode === 303 ||
          ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')
        ) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      return wrap(res, url.href, maxBytes, deadline.signal, finish);
    }
  } catch (err) {
    finish();
    throw err;
  }
}

async function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  allowPrivate: PrivateAllowance,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An address literal is never looked up, so it is checked here.
  if (isIP(host)) await resolveAllowed(host, allowPrivate);
  if (signal.aborted) throw signal.reason;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method,
      headers: {
        'user-agent': 'ClipScribe',
        ...headers,
        ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
      },
      lookup: guardedLookup(allowPrivate),
      signal,
    });
    req.on('response', resolve);
    req.on('error', (err) => reject(outboundErrorOf(err, signal)));
    req.end(body);
  });
}

function outboundErrorOf(err: unknown, signal: AbortSignal): Error {
  if (err instanceof OutboundError) return err;
  if (signal.aborted && signal.reason instanceof Error) return signal.reason;
  const message = err instanceof Error ? err.message : String(err);
  // What the owner of a webhook is told happened (the test delivery's answer, the delivery log).
  const code = (err as { code?: string }).code ?? '';
  return new OutboundError(NETWORK_REASONS[code] ?? (isTlsCode(code) ? 'tls' : 'network'), message);
}

const NETWORK_REASONS: Record<string, OutboundFailure> = {
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  ECONNREFUSED: 'refused',
  ETIMEDOUT: 'timeout',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EPROTO: 'tls',
};

/** Node's certificate and handshake failures (ERR_TLS_…, CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT …). */
function isTlsCode(code: string): boolean {
  return /^ERR_(TLS|SSL)_|CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|^ERR_OSSL/.test(code);
}

function wrap(
  res: IncomingMessage,
  url: string,
  maxBytes: number,
  signal: AbortSignal,
  finish: () => void,
): OutboundResponse {
  const declared = Number(res.headers['content-length']);
  const length = Number.isFinite(declared) && res.headers['content-length'] !== undefined ? declared : null;
  let consumed = false;
  const close = () => {
    finish();
    res.destroy();
  };
  async function* body(): AsyncGenerator<Buffer> {
    if (consumed) throw new Error('the body was read already');
    consumed = true;
    let total = 0;
    try {
      if (length !== null && length > maxBytes)
        throw new OutboundError('too_large', 'the answer is too large');
      for await (const chunk of res) {
        total += (chunk as Buffer).length;
        if (total > maxBytes) throw new OutboundError('too_large', 'the answer is too large');
        yield chunk as Buffer;
      }
    } catch (err) {
      throw outboundErrorOf(err, signal);
    } finally {
      close();
    }
  }
  return {
    status: res.statusCode ?? 0,
    url,
    headers: res.headers,
    length,
    body,
    async text(limit?: number) {
      const chunks: Buffer[] = [];
      let total = 0;
      if (limit !== undefined) {
        consumed = true;
        try {
          for await (const chunk of res) {
            chunks.push(chunk as Buffer);
            total += (chunk as Buffer).length;
            if (total >= limit) break;
          }
        } catch (err) {
          throw outboundErrorOf(err, signal);
        } finally {
          close();
        }
        return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
      }
      for await (const chunk of body()) chunks.push(chunk);
      return Buffer.concat(chunks).toString('utf8');
    },
    close,
  };
}
