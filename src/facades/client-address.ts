import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { Config } from '../config.js';

/**
 * The client's address for per-address buckets and logs. Behind a reverse proxy every socket
 * comes from the proxy, so X-Forwarded-For is read, but only when the peer is a configured
 * proxy (TRUSTED_PROXIES): anyone can send the header, and believing it from anyone would let a
 * caller pick a fresh bucket per request. The chain is walked from the right (the entries our
 * own proxies appended) to the first address that is not a trusted proxy.
 */
export function clientAddress(config: Config, req: IncomingMessage): string {
  const peer = normalise(req.socket.remoteAddress ?? 'unknown');
  if (config.trustedProxies.length === 0) return peer;
  const trusted = proxyList(config);
  if (!isTrusted(trusted, peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((h) => normalise(h.trim())).filter(Boolean);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!isIP(hop)) break; // a malformed entry ends what we can vouch for
    client = hop;
    if (!isTrusted(trusted, hop)) break;
  }
  return client;
}

/** Built once per Config (a pure memo of parsed settings, not shared state). */
const lists = new WeakMap<Config, BlockList>();
function proxyList(config: Config): BlockList {
  let list = lists.get(config);
  if (!list) {
    list = new BlockList();
    for (const entry of config.trustedProxies) {
      const [address, bits] = entry.split('/') as [string, string | undefined];
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) list.addAddress(address, family);
      else list.addSubnet(address, Number(bits), family);
    }
    lists.set(config, list);
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
function normalise(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
