import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Where a webhook may never go: loopback, private, link-local (cloud metadata lives there),
 * shared (CGNAT, Alibaba's metadata), multicast, reserved and documentation ranges, in IPv4 and
 * IPv6. IPv6 forms that embed an IPv4 address (mapped, translated, NAT64, 6to4, ISATAP) are
 * judged by that address; other NAT64 forms (64:ff9b:1::/48 and kin) are never public.
 */
const V4: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];
const V6: [string, number][] = [
  ['::', 128], ['::1', 128], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
];
const LOOPBACK_V4: [string, number] = ['127.0.0.0', 8];

const blocked = new BlockList();
for (const [a, p] of V4) blocked.addSubnet(a, p, 'ipv4');
for (const [a, p] of V6) blocked.addSubnet(a, p, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet(...LOOPBACK_V4, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** The 8 groups of an IPv6 address, `::` and a trailing dotted quad expanded. */
function groups(v6: string): number[] {
  let s = v6.toLowerCase().split('%')[0]!;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (quad) {
    const b = quad[1]!.split('.').map(Number);
    s = s.slice(0, -quad[1]!.length) + `${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, tail] = s.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** The IPv4 address an IPv6 one carries, if it is a form that routes to IPv4. */
function embeddedV4(v6: string): string | null {
  const g = groups(v6);
  if (g.length !== 8) return null;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return v4Of(g[6]!, g[7]!); // ::ffff:a.b.c.d
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) return v4Of(g[6]!, g[7]!); // ::ffff:0:a.b.c.d (SIIT translated)
  if (zeros(6)) return v4Of(g[6]!, g[7]!); // ::a.b.c.d (deprecated compatible form)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4Of(g[6]!, g[7]!); // NAT64
  if (g[0] === 0x2002) return v4Of(g[1]!, g[2]!); // 6to4
  if ((g[4] === 0 || g[4] === 0x200) && g[5] === 0x5efe) return v4Of(g[6]!, g[7]!); // ISATAP interface id
  return null;
}

/**
 * Translation prefixes whose IPv4 address a translator of the operator's own network may place
 * anywhere (RFC 6052's other lengths, RFC 8215's local-use 64:ff9b:1::/48): which address they
 * reach cannot be read with certainty, so they are never public.
 */
function untrustedTranslation(v6: string): boolean {
  const g = groups(v6);
  return g.length === 8 && g[0] === 0x64 && g[1] === 0xff9b;
}

export type AddressVerdict = 'public' | 'loopback' | 'forbidden';

export function classifyAddress(address: string): AddressVerdict {
  if (isIPv4(address)) {
    if (loopback.check(address, 'ipv4')) return 'loopback';
    return blocked.check(address, 'ipv4') ? 'forbidden' : 'public';
  }
  if (isIPv6(address)) {
    const bare = address.split('%')[0]!;
    if (loopback.check(bare, 'ipv6')) return 'loopback';
    if (blocked.check(bare, 'ipv6')) return 'forbidden';
    const inner = embeddedV4(bare);
    if (inner) return classifyAddress(inner) === 'public' ? 'public' : 'forbidden';
    if (untrustedTranslation(bare)) return 'forbidden';
    return 'public';
  }
  return 'forbidden';
}
