import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// Which addresses an outbound request of ours (webhook deliveries, link imports, the language
// model's endpoint) may reach. Classified by ipaddr.js's range table, not by prefixes written
// here: only `unicast` (public) addresses pass. An IPv6 address that carries an IPv4 one —
// IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d` (which the URL parser rewrites to
// `::7f00:1`), IPv4-translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo
// `2001::/32` — reaches that IPv4 address through a translator or tunnel, so it passes exactly
// when every IPv4 address it carries is public. Local-use NAT64 (`64:ff9b:1::/48`) is refused
// outright: where its IPv4 sits depends on a prefix length only the local network knows.

type Ip = ipaddr.IPv4 | ipaddr.IPv6;

export interface AddressVerdict {
  /** Whether a connection may go out to it (without an allowance). */
  public: boolean;
  /** ipaddr.js's range name (`unicast`, `loopback`, `private`, `ipv4Mapped`, `6to4` …), or `invalid`. */
  range: string;
  /** The IPv4 addresses an IPv6 one carries, each checked as well. */
  embedded: string[];
}

function parseAddress(text: string): Ip | null {
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  // Only the canonical spellings Node itself would connect to (no `0x7f.1`: URLs and DNS
  // answers never carry those, and nothing else reaches here).
  if (!isIP(bare)) return null;
  try {
    return ipaddr.parse(bare);
  } catch {
    return null;
  }
}

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);

/** The IPv4 addresses an IPv6 address carries, and whether it is of a kind that never passes. */
function embeddedIpv4(a: ipaddr.IPv6): { carried: ipaddr.IPv4[]; refuse: boolean } | null {
  const w = a.parts;
  const range = a.range();
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  switch (range) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return { carried: [v4(w[6]!, w[7]!)], refuse: false };
    case 'rfc6052':
      // 64:ff9b::/96 (well-known NAT64) carries it in the last 32 bits; 64:ff9b:1::/48 is local.
      if (zeros(2, 6)) return { carried: [v4(w[6]!, w[7]!)], refuse: false };
      return { carried: [v4(w[6]!, w[7]!)], refuse: true };
    case '6to4': // 2002:AABB:CCDD::/48
      return { carried: [v4(w[1]!, w[2]!)], refuse: false };
    case 'teredo': // 2001:0:<server v4>:<flags>:<port>:<client v4 xor ffffffff>
      return { carried: [v4(w[2]!, w[3]!), v4(~w[6]! & 0xffff, ~w[7]! & 0xffff)], refuse: false };
    default:
      // IPv4-compatible ::a.b.c.d (deprecated, but still routed by some stacks); :: and ::1 are
      // their own ranges.
      if (range === 'unicast' && zeros(0, 6)) return { carried: [v4(w[6]!, w[7]!)], refuse: false };
      return null;
  }
}

/** The one classification of an address (IPv4 or IPv6 text, brackets allowed). */
export function classifyAddress(address: string): AddressVerdict {
  const ip = parseAddress(address);
  if (!ip) return { public: false, range: 'invalid', embedded: [] };
  const range = ip.range();
  if (ip.kind() === 'ipv4') return { public: range === 'unicast', range, embedded: [] };
  const inner = embeddedIpv4(ip as ipaddr.IPv6);
  if (!inner) return { public: range === 'unicast', range, embedded: [] };
  return {
    public: !inner.refuse && inner.carried.every((c) => c.range() === 'unicast'),
    range,
    embedded: inner.carried.map((c) => c.toString()),
  };
}

/** Whether an IP address (v4 or v6 text) is one outbound requests must not reach. */
export function isRefusedAddress(address: string): boolean {
  return !classifyAddress(address).public;
}

/**
 * ALLOW_PRIVATE_URLS: `true` lets every refused address through (development, tests); a list of
 * addresses or CIDR ranges (`127.0.0.1,10.0.0.0/8`) lets only those through.
 */
export type PrivateAllowance = boolean | readonly string[];

export function parseAllowance(raw: string | undefined): PrivateAllowance {
  const v = (raw ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1') return true;
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function parseEntry(entry: string): [Ip, number] | null {
  const [addr, bits, extra] = entry.split('/');
  if (extra !== undefined || !addr) return null;
  const ip = parseAddress(addr);
  if (!ip) return null;
  const max = ip.kind() === 'ipv4' ? 32 : 128;
  if (bits === undefined) return [ip, max];
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= max ? [ip, n] : null;
}

/** Whether an allowance entry (an address or a CIDR range) is well formed. */
export function isAllowanceEntry(entry: string): boolean {
  return parseEntry(entry) !== null;
}

function inAllowance(ip: Ip, entries: readonly string[]): boolean {
  return entries.some((entry) => {
    const range = parseEntry(entry);
    return !!range && range[0].kind() === ip.kind() && ip.match(range);
  });
}

/** Whether a connection to `address` may go out under the allowance. */
export function addressAllowed(address: string, allowance: PrivateAllowance = false): boolean {
  const verdict = classifyAddress(address);
  if (verdict.public) return true;
  if (verdict.range === 'invalid' || allowance === false) return false;
  if (allowance === true) return true;
  const ip = parseAddress(address)!;
  if (inAllowance(ip, allowance)) return true;
  // `::ffff:127.0.0.1` is allowed wherever `127.0.0.1` is.
  return (
    verdict.embedded.length > 0 && verdict.embedded.every((e) => inAllowance(ipaddr.parse(e), allowance))
  );
}
