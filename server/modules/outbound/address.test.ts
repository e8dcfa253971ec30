import { describe, expect, it } from 'vitest';
import { addressAllowed, classifyAddress, isAllowanceEntry } from './address';
import { checkDestination, OutboundError, type Resolver } from './destination';

async function reasonOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'allowed';
  } catch (err) {
    if (err instanceof OutboundError) return err.reason;
    throw err;
  }
}

// The outside probe's spellings (issue #24 item 1) and their relatives, as a user would type them
// into a webhook or link field: every one reaches loopback, a private network or the metadata
// service, directly or through a translator or tunnel.
const REFUSED_URLS = [
  'http://127.0.0.1/',
  'http://127.1/',
  'http://2130706433/',
  'http://0x7f.0.0.1/',
  'http://017700000001/',
  'http://0.0.0.0/',
  'http://10.0.0.1/',
  'http://172.16.5.4/',
  'http://192.168.1.1/',
  'http://100.64.0.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://192.0.0.170/',
  'http://198.18.0.1/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://[::1]/',
  'http://[::]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[fe80::1]/',
  'http://[fd00:ec2::254]/',
  'http://[fc00::1]/',
  'http://[ff02::1]/',
  // IPv4-mapped
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[0:0:0:0:0:ffff:a9fe:a9fe]/',
  // IPv4-compatible: the URL parser rewrites [::127.0.0.1] to [::7f00:1]
  'http://[::127.0.0.1]/',
  'http://[::7f00:1]/',
  'http://[::a9fe:a9fe]/',
  'http://[::10.0.0.1]/',
  // IPv4-translated (RFC 6145)
  'http://[::ffff:0:127.0.0.1]/',
  'http://[::ffff:0:a9fe:a9fe]/',
  // 6to4
  'http://[2002:7f00:1::1]/',
  'http://[2002:a9fe:a9fe::]/',
  'http://[2002:c0a8:101::1]/',
  // NAT64, well-known and local-use
  'http://[64:ff9b::7f00:1]/',
  'http://[64:ff9b::169.254.169.254]/',
  'http://[64:ff9b:1::7f00:1]/',
  'http://[64:ff9b:1::808:808]/',
  // Teredo: server 65.54.227.120, client 127.0.0.1 (stored XOR ffffffff); and a private server
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
  'http://[2001:0:a00:1:8000:63bf:f7f7:f7f7]/',
  // Documentation, benchmarking and other non-unicast ranges
  'http://[2001:db8::1]/',
  'http://[100::1]/',
];

const PUBLIC_URLS = [
  'https://8.8.8.8/',
  'http://93.184.216.34/',
  'http://[2606:4700::1111]/',
  'http://[::ffff:8.8.8.8]/',
  'http://[64:ff9b::808:808]/',
  'http://[2002:808:808::1]/',
  // Teredo: server 65.54.227.120, client 8.8.8.8 (f7f7:f7f7 after the XOR)
  'http://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/',
];

describe('the outbound address check', () => {
  it('refuses every private spelling of the probe list', async () => {
    const passed: string[] = [];
    for (const url of REFUSED_URLS) {
      const reason = await reasonOf(checkDestination(url, false));
      if (reason !== 'blocked_address') passed.push(`${url} → ${reason}`);
    }
    expect(passed).toEqual([]);
  });

  it('lets public addresses through, also when an IPv6 form carries a public IPv4 one', async () => {
    for (const url of PUBLIC_URLS) {
      expect(await reasonOf(checkDestination(url, false)), url).toBe('allowed');
    }
  });

  it('names the range and the IPv4 address an IPv6 one carries', () => {
    expect(classifyAddress('::7f00:1')).toEqual({ public: false, range: 'unicast', embedded: ['127.0.0.1'] });
    expect(classifyAddress('2002:7f00:1::1')).toMatchObject({ range: '6to4', embedded: ['127.0.0.1'] });
    expect(classifyAddress('2001:0:4136:e378:8000:63bf:80ff:fffe').embedded).toEqual([
      '65.54.227.120',
      '127.0.0.1',
    ]);
    expect(classifyAddress('10.0.0.1')).toEqual({ public: false, range: 'private', embedded: [] });
    expect(classifyAddress('not an address').range).toBe('invalid');
  });

  it('checks every address a name resolves to, and a name that resolves to none', async () => {
    const mixed: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '::ffff:10.0.0.1', family: 6 },
    ];
    expect(await reasonOf(checkDestination('https://example.com/', false, { resolve: mixed }))).toBe(
      'blocked_address',
    );
    const none: Resolver = async () => [];
    expect(await reasonOf(checkDestination('https://example.com/', false, { resolve: none }))).toBe('dns');
    // The system resolver, for real: localhost is loopback; an .invalid name never resolves.
    expect(await reasonOf(checkDestination('http://localhost:3000/', false))).toBe('blocked_address');
    expect(await reasonOf(checkDestination('http://nothing.invalid/', false))).toBe('dns');
    expect(await reasonOf(checkDestination('ftp://8.8.8.8/', false))).toBe('bad_url');
    expect(await reasonOf(checkDestination('http://user:pw@8.8.8.8/', false))).toBe('bad_url');
  });

  it('lets an allowance through, in either spelling of the address, and nothing else', () => {
    expect(addressAllowed('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(addressAllowed('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(addressAllowed('10.9.8.7', ['10.0.0.0/8'])).toBe(true);
    expect(addressAllowed('169.254.169.254', ['10.0.0.0/8'])).toBe(false);
    expect(addressAllowed('fd00::5', ['fd00::/8'])).toBe(true);
    expect(addressAllowed('fe80::1', true)).toBe(true);
    expect(addressAllowed('fe80::1', false)).toBe(false);
    expect(isAllowanceEntry('10.0.0.0/8')).toBe(true);
    expect(isAllowanceEntry('10.0.0.0/33')).toBe(false);
    expect(isAllowanceEntry('fd00::/8')).toBe(true);
    expect(isAllowanceEntry('nope')).toBe(false);
  });
});
