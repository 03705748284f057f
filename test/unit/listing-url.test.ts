import { describe, expect, it } from 'vitest';
import { listingIdFromUrl } from '../../src/domain/listing-ids/listing-url.js';
import type { Platform } from '../../src/domain/platforms.js';

const SERVED: Platform[] = ['airbnb', 'booking', 'vrbo', 'google'];

/** A valid path per platform, so a hostile URL fails for its host or scheme, not its path. */
const PATHS: Record<string, string> = {
  airbnb: '/rooms/12345',
  booking: '/hotel/pt/hotel-lisboa.html',
  vrbo: '/1234567',
  google: '/travel/hotels/entity/ChkIabcdefgh12',
};
const GOOD_HOST: Record<string, string> = { airbnb: 'www.airbnb.com', booking: 'www.booking.com', vrbo: 'www.vrbo.com', google: 'www.google.com' };

describe('listingIdFromUrl: valid listing URLs', () => {
  it.each([
    ['airbnb', 'https://www.airbnb.com/rooms/12345', '12345'],
    ['airbnb', 'https://airbnb.com/rooms/12345', '12345'],
    ['airbnb', 'https://www.airbnb.co.uk/rooms/987654321', '987654321'],
    ['airbnb', 'https://www.airbnb.pt/rooms/1/', '1'],
    ['airbnb', 'https://www.airbnb.com/rooms/plus/55', '55'],
    ['airbnb', 'https://www.airbnb.com/rooms/12345?check_in=2027-05-01&adults=2#photos', '12345'],
    ['airbnb', 'https://www.airbnb.com/rooms/12345678901234567890', '12345678901234567890'],
    ['booking', 'https://www.booking.com/hotel/pt/hotel-lisboa.html', 'pt/hotel-lisboa'],
    ['booking', 'https://booking.com/hotel/fr/le-petit-2.fr.html', 'fr/le-petit-2'],
    ['booking', 'https://www.booking.com/hotel/gb/the-savoy.en-gb.html?aid=1', 'gb/the-savoy'],
    ['vrbo', 'https://www.vrbo.com/1234567', '1234567'],
    ['vrbo', 'https://www.vrbo.com/1234567ha', '1234567ha'],
    ['vrbo', 'https://vrbo.co.uk/321/', '321'],
    ['google', 'https://www.google.com/travel/hotels/entity/ChkIabcdefgh12', 'ChkIabcdefgh12'],
    ['google', 'https://google.com/travel/hotels/Lisbon/entity/CgoI-_xyz12345/overview', 'CgoI-_xyz12345'],
  ] as const)('%s %s -> %s', (platform, url, id) => {
    expect(listingIdFromUrl(platform, url)).toBe(id);
  });

  it('normalises what WHATWG URL normalises to the same real host (safe to accept)', () => {
    expect(listingIdFromUrl('airbnb', 'HTTPS://WWW.AIRBNB.COM/rooms/7')).toBe('7');
    expect(listingIdFromUrl('airbnb', 'https://www.airbnb.com:443/rooms/7')).toBe('7');
    expect(listingIdFromUrl('airbnb', 'http://www.airbnb.com:80/rooms/7')).toBe('7');
    expect(listingIdFromUrl('airbnb', '  https://www.airbnb.com/rooms/7\n')).toBe('7');
    expect(listingIdFromUrl('airbnb', 'https://www.airbnb.com/x/../rooms/7')).toBe('7');
  });

  it('a listing URL of one platform is not a listing of another', () => {
    for (const from of SERVED) {
      const url = `https://${GOOD_HOST[from]}${PATHS[from]}`;
      for (const to of SERVED) {
        if (to !== from) expect(listingIdFromUrl(to, url), `${url} as ${to}`).toBeNull();
      }
    }
  });

  it('platforms without a URL rule accept nothing', () => {
    for (const p of ['expedia', 'hotels', 'tripadvisor'] as const) {
      expect(listingIdFromUrl(p, 'https://www.expedia.com/Lisbon-Hotels-X.h123.Hotel-Information')).toBeNull();
      expect(listingIdFromUrl(p, 'https://www.airbnb.com/rooms/1')).toBeNull();
    }
  });

  it('accepts exactly 2048 characters and refuses 2049', () => {
    const base = 'https://www.airbnb.com/rooms/1?q=';
    const at = base + 'a'.repeat(2048 - base.length);
    expect(at.length).toBe(2048);
    expect(listingIdFromUrl('airbnb', at)).toBe('1');
    expect(listingIdFromUrl('airbnb', `${at}a`)).toBeNull();
  });
});

function hostileUrls(): string[] {
  const out: string[] = [];
  // Private, loopback and metadata addresses in every notation WHATWG URL accepts.
  const ipHosts = [
    '127.0.0.1', '2130706433', '0x7f000001', '0x7f.0.0.1', '0177.0.0.1', '017700000001', '127.1', '127.0.1',
    '0', '0.0.0.0', 'localhost', 'localhost.', '[::1]', '[0:0:0:0:0:0:0:1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]',
    '169.254.169.254', '2852039166', '0xa9fea9fe', '0251.0376.0251.0376', '0xa9.0xfe.0xa9.0xfe', '[fd00:ec2::254]',
    '[::ffff:169.254.169.254]', 'metadata.google.internal', '10.0.0.1', '192.168.0.1', '172.16.0.1', '[fe80::1]', '100.100.100.200',
  ];
  for (const host of ipHosts) {
    for (const p of SERVED) {
      out.push(`http://${host}${PATHS[p]}`, `https://${host}${PATHS[p]}`);
    }
  }
  for (const p of SERVED) {
    const host = GOOD_HOST[p]!;
    const bare = host.replace(/^www\./, '');
    const path = PATHS[p]!;
    // Userinfo, in front of the real host or pretending to be it.
    out.push(
      `https://${bare}@evil.com${path}`, `https://${host}@evil.com${path}`, `https://${host}:443@evil.com${path}`,
      `https://user:pw@${host}${path}`, `https://user@${host}${path}`, `https://:pw@${host}${path}`,
      `https://${host}%40evil.com${path}`, `https://evil.com\\@${host}${path}`, `https://evil.com#@${host}${path}`,
      `https://evil.com?@${host}${path}`,
    );
    // Other schemes.
    out.push(
      `ftp://${host}${path}`, `file://${host}${path}`, `file:///etc/passwd`, `ws://${host}${path}`, `wss://${host}${path}`,
      `javascript:alert(1)//${host}${path}`, `data:text/html,https://${host}${path}`, `blob:https://${host}${path}`,
      `gopher://${host}${path}`, `view-source:https://${host}${path}`,
    );
    // Explicit, non-default ports.
    for (const port of ['8080', '8443', '1', '0', '65535', '444']) out.push(`https://${host}:${port}${path}`);
    out.push(`http://${host}:443${path}`, `https://${host}:80${path}`);
    // Look-alike hosts.
    const [label, ...rest] = bare.split('.');
    out.push(
      `https://${bare}.evil.com${path}`, `https://${host}.evil.com${path}`, `https://evil${bare}${path}`, `https://${label}-${rest.join('.')}${path}`,
      `https://${bare}.${path}`, `https://${host}.${path}`, `https://${label}.co${path}`, `https://${label}.net${path}`,
      `https://m.${bare}${path}`, `https://www2.${bare}${path}`, `https://www${bare}${path}`, `https://${label}${path}`,
      `https://xn--${label}-9ua.com${path}`, `https://xn--80ak6aa92e.com${path}`,
      // Cyrillic homoglyphs (о for o, с for c): WHATWG turns these into xn-- hosts.
      `https://${bare.replace('o', '\u043e')}${path}`, `https://${host.replace('.com', '.\u0441\u043em')}${path}`,
      `https://evil.com/${host}${path}`, `https://evil.com/?u=https://${host}${path}`,
    );
  }
  // Wrong paths on the right hosts.
  const airbnbPaths = ['/', '/rooms/', '/rooms/abc', '/rooms/1/photos', '/room/1', '/rooms/-1', '/rooms/1.5', '/ROOMS/1', '/rooms/%31',
    '/s/Lisbon/homes', '/rooms/123456789012345678901', '//rooms/1', '/rooms//1', '/rooms/1/../../x', '/rooms/1%2F', '/experiences/123'];
  for (const path of airbnbPaths) out.push(`https://www.airbnb.com${path}`);
  const bookingPaths = ['/hotel/pt/x', '/hotel/PT/x.html', '/hotel/prt/x.html', '/hotel/pt/.html', '/hotel/pt/-x.html', '/hotels/pt/x.html',
    '/hotel/pt/x/y.html', '/hotel/pt/X.html', '/hotel/pt/x.html/', '/hotel/pt/x.en-gb-us.html', '/searchresults.html', '/hotel/pt/x.htm'];
  for (const path of bookingPaths) out.push(`https://www.booking.com${path}`);
  const vrboPaths = ['/12', '/1234567890123', '/1234567hb', '/abc', '/p1234567', '/1234567ha/x', '/search?x=1', '/1234567ha1', '/-1234567'];
  for (const path of vrboPaths) out.push(`https://www.vrbo.com${path}`);
  const googlePaths = ['/travel/hotels/entity/short', '/travel/hotels/entity/', '/maps/place/x', '/travel/hotels/entity/ChkIabcdefgh/a/b',
    '/travel/hotels/entity/ChkI$abcdefgh', '/search?q=hotel', '/travel/hotels/a/b/entity/ChkIabcdefgh', `/travel/hotels/entity/${'a'.repeat(201)}`];
  for (const path of googlePaths) out.push(`https://www.google.com${path}`);
  // Not URLs, relative URLs, over-long URLs.
  out.push('', 'not a url', 'www.airbnb.com/rooms/1', '//www.airbnb.com/rooms/1', '/rooms/1', 'rooms/1', 'https://', 'https:///rooms/1');
  for (const p of SERVED) {
    out.push(`https://${GOOD_HOST[p]}${PATHS[p]}?pad=${'x'.repeat(2100)}`);
    out.push(`https://${GOOD_HOST[p]}${PATHS[p]}#${'y'.repeat(5000)}`);
  }
  return [...new Set(out)];
}

describe('listingIdFromUrl: hostile URLs', () => {
  const hostile = hostileUrls();

  it('generates at least 200 distinct hostile URLs', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(200);
  });

  it('returns null for every hostile URL on every platform', () => {
    const accepted: string[] = [];
    for (const url of hostile) {
      for (const p of SERVED) {
        const id = listingIdFromUrl(p, url);
        if (id !== null) accepted.push(`${p}: ${url} -> ${id}`);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('the controls of the generator are accepted (the hostile cases fail for their hostile part)', () => {
    for (const p of SERVED) {
      expect(listingIdFromUrl(p, `https://${GOOD_HOST[p]}${PATHS[p]}`)).not.toBeNull();
    }
  });

  it('an empty userinfo is dropped by WHATWG URL, leaving the real host', () => {
    // Asserts the actual behaviour: "https://@host" has no username or password after parsing.
    expect(listingIdFromUrl('airbnb', 'https://@www.airbnb.com/rooms/9')).toBe('9');
  });
});
