import net from 'node:net';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { fakePlatforms, type FakePlatforms } from '../support/fake-platforms.js';
import { REQUEST_ID } from '../support/common-rules.js';

/**
 * Listing URLs are parsed against an exact host allowlist and never fetched. Several hundred
 * hostile URLs go to every endpoint that takes one, with a live key (whose platforms are fakes
 * that count their calls) and with sandbox keys: every answer is 400 invalid_listing_url, the
 * fakes are never called, and no socket of this process connects anywhere but the app itself
 * and the databases it already uses.
 */

// ---------------------------------------------------------------------------------------------
// The hostile URLs

const LOOPBACK = [
  '127.0.0.1', '127.1', '127.0.1', '127.000.000.001', '2130706433', '0x7f000001', '0x7f.0.0.1', '0x7f.0x0.0x0.0x1', '0177.0.0.1',
  '0177.0000.0000.0001', '017700000001', '127.255.255.254', '0', '0.0.0.0', '0x0', 'localhost', 'localhost.', 'LOCALHOST', 'a.localhost',
  'localtest.me', '127.0.0.1.nip.io', '127.0.0.1.', '[::1]', '[0:0:0:0:0:0:0:1]', '[0000::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::]',
];
const METADATA = [
  '169.254.169.254', '2852039166', '0xa9fea9fe', '0xA9.0xFE.0xA9.0xFE', '0251.0376.0251.0376', '169.254.43518', '0251.254.169.254',
  '[::ffff:169.254.169.254]', '[::ffff:a9fe:a9fe]', '[fd00:ec2::254]', '[fe80::a9fe:a9fe]', 'metadata.google.internal', 'metadata',
  'instance-data', '100.100.100.200', '169.254.170.2', '169.254.169.254.nip.io', '169.254.169.254.',
];
const PRIVATE = [
  '10.0.0.1', '10.1', '012.0.0.1', '0xa000001', '167772161', '192.168.0.1', '192.168.1.1', '3232235521', '0xc0a80001', '0300.0250.0.1',
  '172.16.0.1', '172.31.255.255', '2886729729', '100.64.0.1', '198.18.0.1', '[fc00::1]', '[fd12:3456::1]', '[fe80::1]', '[::ffff:10.0.0.1]',
  '[::ffff:192.168.0.1]',
];

/** One URL per host and shape: a bare origin, an Airbnb-shaped path, a Booking-shaped path, an explicit port. */
function hostUrls(host: string): string[] {
  return [`http://${host}/`, `https://${host}/rooms/40000012`, `https://${host}/hotel/pt/hotel-lisboa.html`, `http://${host}:6379/latest/meta-data/`];
}

const TRICKS = [
  // userinfo
  'https://www.airbnb.com@127.0.0.1/rooms/1',
  'https://www.airbnb.com:443@169.254.169.254/rooms/1',
  'https://user:pass@www.airbnb.com/rooms/1',
  'https://127.0.0.1@www.airbnb.com/rooms/1',
  'https://www.airbnb.com%40127.0.0.1/rooms/1',
  'https://www.airbnb.com%2F%40127.0.0.1/rooms/1',
  'https://www.booking.com@10.0.0.1/hotel/pt/x.html',
  'https://admin@www.booking.com/hotel/pt/x.html',
  'https://www.airbnb.com#@127.0.0.1/rooms/1',
  'https://127.0.0.1#www.airbnb.com/rooms/1',
  'https://127.0.0.1?.airbnb.com/rooms/1',
  'https://127.0.0.1/www.airbnb.com/rooms/1',
  'https://127.0.0.1/https://www.airbnb.com/rooms/1',
  'https://www.airbnb.com/rooms/1@127.0.0.1',
  'https://www.airbnb.com/redirect?url=http://169.254.169.254/',
  'https://www.airbnb.com/rooms/1/../../../169.254.169.254',
  // other schemes
  'file:///etc/passwd',
  'file://localhost/etc/passwd',
  'file://127.0.0.1/etc/passwd',
  'file:///C:/Windows/win.ini',
  'gopher://127.0.0.1:6379/_INFO',
  'dict://127.0.0.1:6379/info',
  'ftp://127.0.0.1/',
  'ftp://www.airbnb.com/rooms/1',
  'sftp://127.0.0.1:22/',
  'ldap://127.0.0.1/',
  'tftp://127.0.0.1/x',
  'ws://www.airbnb.com/rooms/1',
  'wss://www.airbnb.com/rooms/1',
  'jar:http://127.0.0.1!/x.class',
  'netdoc:///etc/passwd',
  'data:text/html;base64,PHNjcmlwdD4=',
  'javascript://www.airbnb.com/rooms/1',
  'view-source:https://www.airbnb.com/rooms/1',
  'blob:https://www.airbnb.com/rooms/1',
  'redis://127.0.0.1:6379/',
  'postgres://postgres@127.0.0.1:5432/postgres',
  'HTTPS://127.0.0.1/rooms/1',
  'hTTp://169.254.169.254/latest/meta-data/',
  // ports on allowed hosts
  'https://www.airbnb.com:8080/rooms/1',
  'https://www.airbnb.com:22/rooms/1',
  'https://www.airbnb.com:6379/rooms/1',
  'https://www.airbnb.com:5432/rooms/1',
  'https://www.airbnb.com:80/rooms/1',
  'http://www.airbnb.com:443/rooms/1',
  'https://www.airbnb.com:0/rooms/1',
  'https://www.airbnb.com:65535/rooms/1',
  'https://www.airbnb.com:65536/rooms/1',
  'https://www.booking.com:8443/hotel/pt/x.html',
  // look-alike hosts
  'https://www.airbnb.com.evil.example/rooms/1',
  'https://airbnb.com.127.0.0.1.nip.io/rooms/1',
  'https://wwwairbnb.com/rooms/1',
  'https://www-airbnb.com/rooms/1',
  'https://airbnb.com-evil.example/rooms/1',
  'https://evilairbnb.com/rooms/1',
  'https://www.airbnb.co/rooms/1',
  'https://www.airbnb.cm/rooms/1',
  'https://www.airbnb.com.au.evil.example/rooms/1',
  'https://www.аirbnb.com/rooms/1',
  'https://m.airbnb.com/rooms/1',
  'https://api.airbnb.com/rooms/1',
  'https://booking.com.evil.example/hotel/pt/x.html',
  'https://www.booking.com.127.0.0.1.nip.io/hotel/pt/x.html',
  'https://secure.booking.com/hotel/pt/x.html',
  'https://www.airbnb.com%00.evil.example/rooms/1',
  // encoded hosts
  'https://%31%32%37%2e%30%2e%30%2e%31/rooms/1',
  'https://%6c%6f%63%61%6c%68%6f%73%74/rooms/1',
  'https://www.airbnb.com%2e127.0.0.1/rooms/1',
  'https://0x7f%2e1/rooms/1',
  'https://①②⑦.0.0.1/rooms/1',
  'https://１２７.０.０.１/rooms/1',
  'https://%E2%91%A0%E2%91%A1%E2%91%A6.0.0.1/rooms/1',
  // trailing dots
  'https://www.airbnb.com./rooms/1',
  'https://airbnb.com../rooms/1',
  'https://www.booking.com./hotel/pt/x.html',
  'http://169.254.169.254./latest/meta-data/',
  'http://localhost./',
  // backslashes
  'https://www.airbnb.com\\@127.0.0.1/rooms/1',
  'https:\\\\127.0.0.1\\rooms/1',
  'https://127.0.0.1\\@www.airbnb.com/rooms/1',
  'https://www.airbnb.com\\..\\..\\169.254.169.254/',
  'https:/\\169.254.169.254/latest/meta-data/',
  'http:/127.0.0.1/rooms/1',
  'https:127.0.0.1/rooms/1',
  'http:///127.0.0.1/rooms/1',
  'https://[::1]:443/rooms/1',
  'https://[fe80::1%25eth0]/rooms/1',
];

const HOSTILE = [...new Set([...LOOPBACK, ...METADATA, ...PRIVATE].flatMap(hostUrls).concat(TRICKS))];

/** The platform whose allowlist a URL is checked against: the one its path imitates. */
const platformOf = (url: string) => (url.includes('/hotel/') ? 'booking' : 'airbnb');

interface Target {
  name: string;
  param: string;
  path(url: string): string;
}
const dates = () => {
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  return { a: day(30), b: day(33) };
};
const TARGETS: Target[] = [
  { name: 'availability', param: 'url', path: (u) => `/v1/availability?platform=${platformOf(u)}&url=${encodeURIComponent(u)}&startDate=${dates().a}&endDate=${dates().b}` },
  { name: 'reviews', param: 'url', path: (u) => `/v1/reviews?platform=${platformOf(u)}&url=${encodeURIComponent(u)}` },
  { name: 'price', param: 'listingId', path: (u) => `/v1/price?platform=${platformOf(u)}&listingId=${encodeURIComponent(u)}&checkIn=${dates().a}&checkOut=${dates().b}` },
];

// ---------------------------------------------------------------------------------------------
// Recording every outbound connection of this process (the app runs in it)

type ConnectFn = (...args: unknown[]) => net.Socket;
const originalConnect = net.Socket.prototype.connect as unknown as ConnectFn;
interface Connection {
  to: string;
  /** Who opened it, to tell the app's own PostgreSQL pool from anything else going to 5432. */
  stack: string;
}
let recording: Connection[] | null = null;

function destination(args: unknown[]): string {
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0]; // net.connect passes its normalised [options, cb]
  if (first && typeof first === 'object') {
    const o = first as { host?: string; port?: number | string; path?: string };
    return o.path !== undefined ? `ipc:${o.path}` : `${o.host ?? 'localhost'}:${o.port}`;
  }
  if (typeof first === 'number' || /^\d+$/.test(String(first))) return `${typeof args[1] === 'string' ? args[1] : 'localhost'}:${first}`;
  return `ipc:${String(first)}`;
}

function installRecorder(): void {
  net.Socket.prototype.connect = function recordedConnect(this: net.Socket, ...args: unknown[]) {
    recording?.push({ to: destination(args), stack: new Error().stack ?? '' });
    return originalConnect.apply(this, args);
  } as unknown as typeof net.Socket.prototype.connect;
}

async function recorded<T>(fn: () => Promise<T>): Promise<{ value: T; connections: Connection[] }> {
  recording = [];
  try {
    const value = await fn();
    return { value, connections: recording };
  } finally {
    recording = null;
  }
}

// ---------------------------------------------------------------------------------------------

let app: TestApp;
let fake: FakePlatforms;
let appPort: number;
let probe: Server;

beforeAll(async () => {
  fake = fakePlatforms();
  app = await startTestApp({ platforms: { live: fake.adapters } });
  appPort = Number(new URL(app.baseUrl).port);
  probe = createServer((_req, res) => res.end('probe'));
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  installRecorder();
}, 120_000);

afterAll(async () => {
  net.Socket.prototype.connect = originalConnect as unknown as typeof net.Socket.prototype.connect;
  probe?.closeAllConnections();
  await new Promise((resolve) => probe?.close(resolve));
  await app?.close();
});

/**
 * Connections that are neither the test's own requests to the app nor the app's PostgreSQL pool
 * (opened by the postgres driver). This app runs without Redis, so 6379 is never expected; and a
 * connection to 5432 from anywhere but the driver (a fetched `postgres://` or `http://127.0.0.1:5432`
 * URL) counts as an outsider. The app's own pool is node-postgres (`pg`), which opens connections
 * whenever it needs more (or replaced idle ones), so its connections are recognised as the driver's too.
 */
function outsiders(connections: Connection[]): string[] {
  return connections
    .filter((c) => !(c.to === `127.0.0.1:${appPort}` || (c.to === '127.0.0.1:5432' && /node_modules[\\/](postgres|pg)[\\/]/.test(c.stack))))
    .map((c) => c.to);
}

async function keys(env: 'sandbox' | 'live', count: number): Promise<string[]> {
  const out = await Promise.all(Array.from({ length: count }, () => app.newKey(env, env === 'live' ? { plan: 'scale', credits: 100_000 } : {})));
  return out.map((k) => k.key);
}

async function inParallel<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

describe('hostile listing URLs', () => {
  it('are enough, and shaped so every endpoint reads them as URLs', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(200);
    for (const u of HOSTILE) {
      // /price treats a value as a URL when it has a scheme and a slash (spec 4.5); no spaces or
      // control characters, so the only possible refusal is the URL check itself.
      expect(/^[a-z][a-z0-9+.-]*:/i.test(u) && u.includes('/'), u).toBe(true);
      expect(/[\s\u0000-\u001f]/.test(u), u).toBe(false);
      expect(u.length).toBeLessThanOrEqual(2048);
    }
  });

  it('the connection recorder sees fetch, net.connect and the PostgreSQL driver, and tells them apart', async () => {
    const probePort = (probe.address() as AddressInfo).port;
    const rawConnect = (port: number) =>
      new Promise<void>((resolve, reject) => {
        const s = net.connect(port, '127.0.0.1', () => (s.end(), resolve()));
        s.on('error', reject);
      });
    const { connections } = await recorded(async () => {
      expect(await (await fetch(`http://127.0.0.1:${probePort}/`)).text()).toBe('probe');
      await rawConnect(probePort);
      await rawConnect(5432); // to PostgreSQL's port, but not by the driver: an outsider
      const driver = postgres(app.db.url, { max: 1, onnotice: () => {} });
      expect(await driver`select 1 as one`).toEqual([{ one: 1 }]);
      await driver.end();
    });
    expect(connections.map((c) => c.to)).toEqual(expect.arrayContaining([`127.0.0.1:${probePort}`, '127.0.0.1:5432']));
    expect(outsiders(connections).sort()).toEqual(['127.0.0.1:5432', `127.0.0.1:${probePort}`, `127.0.0.1:${probePort}`].sort());
  });

  for (const env of ['sandbox', 'live'] as const) {
    it(`answer 400 invalid_listing_url on every endpoint with a ${env} key, with no outbound connection and no platform call`, async () => {
      const requests = TARGETS.flatMap((t) => HOSTILE.map((url) => ({ t, url })));
      // Rate limits: scale plan 300/min for live keys, 30/min for sandbox keys; stay at 5/6 of that.
      const perKey = env === 'live' ? 250 : 25;
      const pool = await keys(env, Math.ceil(requests.length / perKey));
      const callsBefore = fake.calls();
      let n = 0;
      const wrong: string[] = [];
      const { connections } = await recorded(() =>
        inParallel(requests, 8, async ({ t, url }) => {
          const key = pool[n++ % pool.length]!;
          const res = await app.get(t.path(url), key);
          const text = await res.text();
          let error: { code?: string; param?: string; requestId?: string } | undefined;
          try {
            error = (JSON.parse(text) as { error?: typeof error }).error;
          } catch {
            error = undefined;
          }
          const requestId = res.headers.get('x-request-id') ?? '';
          if (res.status !== 400 || error?.code !== 'invalid_listing_url' || error.param !== t.param || error.requestId !== requestId || !REQUEST_ID.test(requestId)) {
            wrong.push(`${t.name} ${url} -> ${res.status} ${text.slice(0, 200)}`);
          }
        }),
      );
      console.log(`ssrf (${env}): ${requests.length} requests, ${HOSTILE.length} URLs x ${TARGETS.length} endpoints, ${pool.length} keys; connections opened meanwhile: ${[...new Set(connections.map((c) => c.to))].join(', ') || 'none'}`);
      expect(wrong).toEqual([]);
      expect(fake.calls() - callsBefore).toBe(0);
      expect(outsiders(connections)).toEqual([]);
    }, 180_000);
  }

  it('the same endpoints accept a real listing URL, and a live one reaches the (fake) platform', async () => {
    const [live] = await keys('live', 1);
    const [sandbox] = await keys('sandbox', 1);
    const before = fake.calls();
    for (const t of TARGETS) {
      for (const url of ['https://www.airbnb.com/rooms/40000012', 'https://www.booking.com/hotel/pt/hotel-lisboa.html']) {
        for (const key of [live!, sandbox!]) {
          const res = await app.get(t.path(url), key);
          expect(res.status, `${t.name} ${url} ${key.slice(0, 9)}: ${await res.clone().text()}`).toBe(200);
        }
      }
    }
    expect(fake.calls() - before).toBeGreaterThanOrEqual(TARGETS.length * 2);
  });
});

// ---------------------------------------------------------------------------------------------
// callbackUrl: the one URL the service does fetch (job webhooks). Every hostile host, over https
// and http and on another port, and every scheme trick, is refused when registered: 400 naming
// callbackUrl, no job, no outbound connection. (Re-checking at delivery, DNS rebinding included,
// is proven in test/integration/webhooks.test.ts.)

/**
 * The tricks that are hostile whatever DNS says: unparsable, another scheme, credentials, or a
 * host that is an address or a loopback name. (Look-alike public names are left out: where DNS
 * answers, a public https host is a valid callback.)
 */
function hostileWhereverResolved(u: string): boolean {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return true;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return true;
  return net.isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0 || /(^|\.)(localhost|nip\.io)\.?$/i.test(url.hostname);
}
const SCHEME_TRICKS = TRICKS.filter(hostileWhereverResolved);
const HOSTILE_CALLBACKS = [
  ...new Set([...LOOPBACK, ...METADATA, ...PRIVATE].flatMap((h) => [`https://${h}/hooks/stays`, `http://${h}/hooks/stays`, `https://${h}:8443/hooks`]).concat(SCHEME_TRICKS)),
];

describe('hostile callback URLs', () => {
  it('are enough, and none names a public host the service could legitimately call', () => {
    expect(HOSTILE_CALLBACKS.length).toBeGreaterThanOrEqual(200);
  });

  it('are refused at registration with 400 naming callbackUrl, with no job and no outbound connection', async () => {
    const pool = await keys('sandbox', Math.ceil(HOSTILE_CALLBACKS.length / 25) + 1);
    const [before] = await app.sql<{ n: string }[]>`select count(*)::text as n from async_jobs`;
    let n = 0;
    const wrong: string[] = [];
    const { connections } = await recorded(() =>
      inParallel(HOSTILE_CALLBACKS, 8, async (url) => {
        const key = pool[n++ % pool.length]!;
        // Alternate the GET query and the POST body forms of the same parameter.
        const res = n % 2
          ? await app.get(`/v1/search?location=sandbox:async&callbackUrl=${encodeURIComponent(url)}`, key)
          : await fetch(`${app.baseUrl}/v1/search`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ location: 'sandbox:async', callbackUrl: url }),
            });
        const text = await res.text();
        const error = res.status === 400 ? (JSON.parse(text) as { error: { code: string; param?: string } }).error : null;
        if (error?.code !== 'invalid_request' || error.param !== 'callbackUrl') wrong.push(`${url} -> ${res.status} ${text.slice(0, 200)}`);
      }),
    );
    console.log(`ssrf (callbackUrl): ${HOSTILE_CALLBACKS.length} URLs; connections opened meanwhile: ${[...new Set(connections.map((c) => c.to))].join(', ') || 'none'}`);
    expect(wrong).toEqual([]);
    expect(outsiders(connections)).toEqual([]);
    const [after] = await app.sql<{ n: string }[]>`select count(*)::text as n from async_jobs`;
    expect(after!.n).toBe(before!.n);
  }, 180_000);
});
