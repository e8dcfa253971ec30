import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressAllowed, type PrivateAllowance } from './address';

// The one outbound address check: parse the URL, resolve the name, classify EVERY address it
// resolves to (modules/outbound/address.ts). Registration (webhook endpoints, links to import)
// calls checkDestination so the user hears it at once; safeFetch calls resolveAllowed again as
// it connects, on every redirect, so a name that changes its answer later is caught too.

export type OutboundFailure =
  | 'bad_url'
  | 'blocked_address'
  | 'dns'
  | 'refused'
  | 'unreachable'
  | 'reset'
  | 'tls'
  | 'too_many_redirects'
  | 'timeout'
  | 'too_large'
  | 'network';

export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

/** A URL outbound requests may be sent to at all (scheme, no credentials), or why not. */
export function checkOutboundUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('bad_url', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('bad_url', 'only http and https addresses');
  }
  if (url.username || url.password) throw new OutboundError('bad_url', 'credentials in the address');
  return url;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Resolver = (hostname: string, family?: number) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = (hostname, family) =>
  dnsLookup(hostname, { all: true, family: family ?? 0 });

/**
 * Every address `hostname` stands for, when all of them may be reached: an address literal is
 * itself, a name is resolved. Throws 'dns' when the name does not resolve and 'blocked_address'
 * when any address is not public (and not in the allowance).
 */
export async function resolveAllowed(
  hostname: string,
  allowance: PrivateAllowance,
  opts: { family?: number; resolve?: Resolver } = {},
): Promise<ResolvedAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  let found: ResolvedAddress[];
  if (family) found = [{ address: host, family }];
  else {
    try {
      found = await (opts.resolve ?? systemResolver)(host, opts.family);
    } catch (err) {
      throw new OutboundError(
        'dns',
        `${host} does not resolve (${(err as { code?: string }).code ?? 'error'})`,
      );
    }
    if (found.length === 0) throw new OutboundError('dns', `${host} does not resolve`);
  }
  const bad = found.find((a) => !addressAllowed(a.address, allowance));
  if (bad) throw new OutboundError('blocked_address', `${host} is ${bad.address}, not a public address`);
  return found;
}

/** The URL, when it may be sent to: http(s), no credentials, and every address public. */
export async function checkDestination(
  raw: string,
  allowance: PrivateAllowance,
  opts: { resolve?: Resolver } = {},
): Promise<URL> {
  const url = checkOutboundUrl(raw.trim());
  await resolveAllowed(url.hostname, allowance, opts);
  return url;
}
