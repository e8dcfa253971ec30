import { BlockList, isIP } from 'node:net';

// Addresses no outbound request of ours (webhook deliveries, link imports) may reach: this
// machine, the private networks behind it, link-local (cloud metadata at 169.254.169.254 and
// fd00:ec2::254), multicast and the reserved ranges. Checked on the resolved address, so a
// public name that resolves to 10.0.0.1 is refused too.
const refused = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  refused.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  refused.addSubnet(net, bits, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::/96), or null. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = lower.match(/^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) return dotted[1]!;
  const hex = lower.match(/^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** Whether an IP address (v4 or v6 text) is one outbound requests must not reach. */
export function isRefusedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return refused.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4) return isIP(v4) !== 4 || refused.check(v4, 'ipv4');
    return refused.check(bare, 'ipv6');
  }
  // Not an address at all: nothing to connect to.
  return true;
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

/** Whether an allowance entry (an address or a CIDR range) is well formed. */
export function isAllowanceEntry(entry: string): boolean {
  const [addr, bits, extra] = entry.split('/');
  if (extra !== undefined || !addr) return false;
  const family = isIP(addr);
  if (!family) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return Number.isInteger(n) && n >= 0 && n <= (family === 4 ? 32 : 128);
}

function allowanceList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [addr, bits] = entry.split('/');
    const type = isIP(addr!) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(addr!, type);
    else list.addSubnet(addr!, Number(bits), type);
  }
  return list;
}

/** Whether a connection to `address` may go out under the allowance. */
export function addressAllowed(address: string, allowance: PrivateAllowance = false): boolean {
  if (!isRefusedAddress(address)) return true;
  if (allowance === true) return true;
  if (allowance === false || allowance.length === 0) return false;
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (!family) return false;
  return allowanceList(allowance).check(bare, family === 6 ? 'ipv6' : 'ipv4');
}
