import { promises as dns } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import type { Cache } from '../../domain/ports/caching.js';

/**
 * Client ID Metadata Documents (MCP authorization 2025-11-25; draft-ietf-oauth-client-id-metadata-document):
 * a client's id is an https URL whose document describes it. Fetching a URL a stranger chose is
 * an SSRF hazard, so: https only on the default port, no userinfo or fragment; every address the
 * host resolves to must be public, and the connection goes to the address that was checked (no
 * DNS rebinding between check and connect); no redirects; a size and a time limit; answers and
 * refusals cached, so a client id cannot make us fetch more than once per TTL.
 */
export class ClientMetadataError extends Error {}

export interface ClientMetadataFetcher {
  /** The validated document of a URL client id; throws ClientMetadataError saying why not. */
  get(url: string): Promise<Record<string, unknown>>;
}

export interface FetchPolicy {
  /** URL schemes allowed; production: https only. */
  schemes: readonly string[];
  /** Whether an address may be connected to; production: public addresses only. */
  addressAllowed(ip: string): boolean;
  timeoutMs: number;
  maxBytes: number;
  ttlMs: number;
  failureTtlMs: number;
}

const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 127], ['64:ff9b::', 96], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8]] as const) NON_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** Public unicast only; an IPv4-mapped IPv6 address is judged by its IPv4 part. */
export function isPublicAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return isPublicAddress(mapped[1]!);
  if (/^::ffff:/i.test(ip)) return false;
  const family = isIP(ip);
  if (family === 0) return false;
  return !NON_PUBLIC.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

export const PUBLIC_HTTPS: FetchPolicy = { schemes: ['https:'], addressAllowed: isPublicAddress, timeoutMs: 5_000, maxBytes: 64 * 1024, ttlMs: 10 * 60_000, failureTtlMs: 60_000 };

/** Whether a client_id is meant as a metadata document URL (anything else is a registered id). */
export function isUrlClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/** Why a URL may not be fetched as a client id, judged before any DNS or connection; null when it may. */
export function urlProblem(raw: string, policy: FetchPolicy): string | null {
  if (raw.length > 2048 || /[\u0000-\u0020\u007f]/.test(raw)) return 'the URL is too long or contains spaces or control characters';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (!policy.schemes.includes(url.protocol)) return 'must be an https URL';
  if (url.username || url.password || raw.includes('#')) return 'must not contain user information or a fragment';
  if (url.port !== '' && policy === PUBLIC_HTTPS) return 'must use the default https port';
  if (url.pathname === '/' || /(^|\/)\.\.?(\/|$)/.test(url.pathname)) return 'must have a path, without dot segments';
  if (url.href !== raw) return 'must be in normalised form';
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !policy.addressAllowed(literal)) return 'the host is not a public address';
  return null;
}

export function createClientMetadataFetcher(cache: Cache, policy: FetchPolicy = PUBLIC_HTTPS): ClientMetadataFetcher {
  // Every address of the name is checked, then the connection uses the first one checked.
  const lookup: LookupFunction = (hostname, options, callback) => {
    dns
      .lookup(hostname, { all: true, verbatim: true })
      .then((addresses) => {
        const bad = addresses.find((a) => !policy.addressAllowed(a.address));
        if (addresses.length === 0 || bad) return callback(new ClientMetadataError('the host resolves to a non-public address'), '', 4);
        const first = addresses[0]!;
        if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
        callback(null, first.address, first.family);
      })
      .catch(() => callback(new ClientMetadataError('the host does not resolve'), '', 4));
  };
  const agent = new Agent({ connect: { lookup, timeout: policy.timeoutMs }, headersTimeout: policy.timeoutMs, bodyTimeout: policy.timeoutMs });

  async function download(url: string): Promise<Record<string, unknown>> {
    const signal = AbortSignal.timeout(policy.timeoutMs);
    let res;
    try {
      res = await request(url, { dispatcher: agent, signal, headers: { accept: 'application/json' } });
    } catch (err) {
      throw err instanceof ClientMetadataError ? err : new ClientMetadataError((err as { cause?: unknown }).cause instanceof ClientMetadataError ? String(((err as { cause: Error }).cause).message) : 'the document could not be fetched');
    }
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new ClientMetadataError(`the document answered HTTP ${res.statusCode} (redirects are not followed)`);
    }
    let size = 0;
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > policy.maxBytes) {
          res.body.destroy();
          throw new ClientMetadataError(`the document is larger than ${policy.maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      throw err instanceof ClientMetadataError ? err : new ClientMetadataError('the document took too long');
    }
    try {
      const doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error();
      return doc as Record<string, unknown>;
    } catch {
      throw new ClientMetadataError('the document is not a JSON object');
    }
  }

  return {
    async get(url) {
      const problem = urlProblem(url, policy);
      if (problem) throw new ClientMetadataError(problem);
      const key = `oauth:client-metadata:${url}`;
      const hit = await cache.get(key);
      if (hit !== null) {
        const cached = JSON.parse(hit) as { doc?: Record<string, unknown>; error?: string };
        if (cached.doc) return cached.doc;
        throw new ClientMetadataError(cached.error ?? 'the document could not be fetched');
      }
      try {
        const doc = await download(url);
        await cache.set(key, JSON.stringify({ doc }), policy.ttlMs);
        return doc;
      } catch (err) {
        const reason = err instanceof ClientMetadataError ? err.message : 'the document could not be fetched';
        await cache.set(key, JSON.stringify({ error: reason }), policy.failureTtlMs);
        throw new ClientMetadataError(reason);
      }
    },
  };
}
