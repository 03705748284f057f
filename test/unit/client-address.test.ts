import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { clientAddress } from '../../src/facades/client-address.js';

const req = (peer: string, xff?: string) => ({ socket: { remoteAddress: peer }, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } }) as unknown as IncomingMessage;

describe('client address behind reverse proxies (TRUSTED_PROXIES)', () => {
  const none = testConfig();
  const proxies = testConfig({ trustedProxies: ['10.0.0.0/8', '127.0.0.1'] });

  it('with no trusted proxy, X-Forwarded-For is ignored: anyone can send it', () => {
    expect(clientAddress(none, req('203.0.113.9', '198.51.100.1'))).toBe('203.0.113.9');
  });

  it('from a trusted proxy, the right-most address that is not a proxy', () => {
    expect(clientAddress(proxies, req('10.1.2.3', '198.51.100.7'))).toBe('198.51.100.7');
    // A client-sent entry on the left cannot pick the bucket: the proxy appended the real one.
    expect(clientAddress(proxies, req('10.1.2.3', '1.1.1.1, 198.51.100.7'))).toBe('198.51.100.7');
    expect(clientAddress(proxies, req('::ffff:127.0.0.1', '198.51.100.7, 10.9.9.9'))).toBe('198.51.100.7');
  });

  it('from an untrusted peer, or with a malformed chain, what can be vouched for', () => {
    expect(clientAddress(proxies, req('203.0.113.9', '198.51.100.7'))).toBe('203.0.113.9');
    expect(clientAddress(proxies, req('10.1.2.3'))).toBe('10.1.2.3');
    expect(clientAddress(proxies, req('10.1.2.3', 'garbage'))).toBe('10.1.2.3');
  });
});
