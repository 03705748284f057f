import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';

/**
 * The replay upstream: serves recorded platform responses from a folder, with latency and faults,
 * so the live path runs with no internet (tests, benchmarks, demos). Point a platform at it with
 * its base URL setting, e.g. AIRBNB_BASE_URL=http://127.0.0.1:4010/airbnb.
 *
 * A request for /<platform>/<path> is answered from <dir>/<platform>/<path>[/<operation>]/<key>.json
 * when the request names a key (query `id`, `listing_id`, `hotel_id`, `property_token`,
 * `place_id`, or the first `id`/`listingId`/`hotelId` in the body's `variables`), else from
 * <dir>/<platform>/<path>[/<operation>].json; 404 when neither exists. <operation> is the query's
 * `engine` or `operationName`, or the JSON body's `operationName`, for APIs that serve many
 * operations on one path (SerpApi, GraphQL). Faults are set per platform (or for all) at start or at run time through
 * POST /__replay with { platform?, delayMs, jitterMs, errorRate, hangRate, blockedRate }.
 */
export interface Faults {
  delayMs: number;
  jitterMs: number;
  /** Share of requests answered 502. */
  errorRate: number;
  /** Share of requests never answered. */
  hangRate: number;
  /** Share of requests answered with a 403 challenge page. */
  blockedRate: number;
}

export const NO_FAULTS: Faults = { delayMs: 0, jitterMs: 0, errorRate: 0, hangRate: 0, blockedRate: 0 };
const KEY_PARAMS = ['id', 'listing_id', 'hotel_id', 'property_token', 'place_id'];
const CHALLENGE_PAGE = '<!doctype html><html><head><title>Access Denied</title></head><body><div id="px-captcha"></div>Please verify you are a human.</body></html>';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

function operationOf(url: URL, body: string): string | null {
  const fromQuery = url.searchParams.get('engine') ?? url.searchParams.get('operationName');
  if (fromQuery) return fromQuery;
  try {
    const op = (JSON.parse(body) as { operationName?: unknown }).operationName;
    return typeof op === 'string' ? op : null;
  } catch {
    return null;
  }
}

function requestKey(url: URL, body: string): string | null {
  for (const p of KEY_PARAMS) {
    const v = url.searchParams.get(p);
    if (v) return v;
  }
  try {
    return findKey((JSON.parse(body) as { variables?: unknown }).variables, 0);
  } catch {
    return null;
  }
}

/** The first `id`, `listingId` or `hotelId` in GraphQL variables, however nested (three levels at most). */
function findKey(value: unknown, depth: number): string | null {
  if (!value || typeof value !== 'object' || depth > 3) return null;
  const record = value as Record<string, unknown>;
  for (const name of ['id', 'listingId', 'hotelId']) {
    const v = record[name];
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  for (const child of Object.values(record)) {
    const found = findKey(child, depth + 1);
    if (found) return found;
  }
  return null;
}

async function firstExisting(files: string[]): Promise<string | null> {
  for (const f of files) {
    try {
      return await readFile(f, 'utf8');
    } catch {
      /* next */
    }
  }
  return null;
}

export function createReplayServer(dir: string, initial: Partial<Faults> = {}): Server & { faults: Map<string, Faults> } {
  const root = path.resolve(dir);
  const faults = new Map<string, Faults>([['*', { ...NO_FAULTS, ...initial }]]);
  const faultsFor = (platform: string) => faults.get(platform) ?? faults.get('*')!;
  const hung = new Set<ServerResponse>();

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://replay');
    const body = await readBody(req);
    if (url.pathname === '/__replay') {
      if (req.method === 'DELETE') faults.clear(), faults.set('*', { ...NO_FAULTS });
      else {
        const set = JSON.parse(body || '{}') as Partial<Faults> & { platform?: string };
        const key = set.platform ?? '*';
        faults.set(key, { ...faultsFor(key), ...set });
      }
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify(Object.fromEntries(faults)));
    }
    const segments = url.pathname.split('/').filter(Boolean);
    if (segments.some((s) => s === '..' || s.includes('\\'))) return res.writeHead(400).end();
    const f = faultsFor(segments[0] ?? '*');
    const wait = f.delayMs + Math.random() * f.jitterMs;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const roll = Math.random();
    if (roll < f.hangRate) return void hung.add(res);
    if (roll < f.hangRate + f.blockedRate) return res.writeHead(403, { 'content-type': 'text/html' }).end(CHALLENGE_PAGE);
    if (roll < f.hangRate + f.blockedRate + f.errorRate) return res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
    const operation = operationOf(url, body);
    const base = path.join(root, ...segments, ...(operation ? [operation.replace(/[^A-Za-z0-9_.-]/g, '_')] : []));
    const key = requestKey(url, body);
    // A recorded web page (a path ending in .html) is served as the page itself.
    const page = base.endsWith('.html');
    const candidates = page ? [base] : [...(key ? [path.join(base, `${key.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`)] : []), `${base}.json`];
    const payload = await firstExisting(candidates.filter((c) => c.startsWith(root)));
    if (payload === null) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no recording"}');
    res.writeHead(200, { 'content-type': page ? 'text/html; charset=utf-8' : 'application/json' }).end(payload);
  });
  server.on('close', () => hung.forEach((r) => r.destroy()));
  return Object.assign(server, { faults });
}
