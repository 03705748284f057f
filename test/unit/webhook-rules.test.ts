import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../src/domain/webhooks/webhook-address.js';
import { sign, signatureHeader, verifySignature } from '../../src/domain/webhooks/webhook-signature.js';
import { checkCallbackUrl } from '../../src/adapters/webhooks/callback-url.js';
import { preferredWait } from '../../src/facades/rest/retries/retry-params.js';

describe('Standard Webhooks signature', () => {
  it('matches the example of the Standard Webhooks specification', () => {
    // secret, id, timestamp, body and signature as published with the specification
    expect(sign('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('verifies any of several signatures, and refuses a changed body, another secret or a stale timestamp', () => {
    const [a, b] = ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo='];
    const headers = { id: 'msg_1', timestamp: '1700000000', signature: signatureHeader([a, b], 'msg_1', 1700000000, '{"x":1}') };
    expect(verifySignature(a, headers, '{"x":1}', 1700000100)).toBe(true);
    expect(verifySignature(b, headers, '{"x":1}', 1700000100)).toBe(true);
    expect(verifySignature(a, headers, '{"x":2}', 1700000100)).toBe(false);
    expect(verifySignature('whsec_b3RoZXI=', headers, '{"x":1}', 1700000100)).toBe(false);
    expect(verifySignature(a, headers, '{"x":1}', 1700000301)).toBe(false);
  });
});

describe('callback addresses', () => {
  it.each([
    ['93.184.216.34', 'public'], ['2606:4700::1111', 'public'], ['::ffff:8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'], ['127.9.9.9', 'loopback'], ['::1', 'loopback'],
    ['10.0.0.1', 'forbidden'], ['172.16.5.4', 'forbidden'], ['192.168.1.1', 'forbidden'], ['100.64.0.1', 'forbidden'], ['100.100.100.200', 'forbidden'],
    ['169.254.169.254', 'forbidden'], ['0.0.0.0', 'forbidden'], ['224.0.0.1', 'forbidden'], ['255.255.255.255', 'forbidden'], ['198.18.0.1', 'forbidden'],
    ['fd00:ec2::254', 'forbidden'], ['fe80::1', 'forbidden'], ['fe80::1%eth0', 'forbidden'], ['::', 'forbidden'], ['ff02::1', 'forbidden'],
    ['::ffff:169.254.169.254', 'forbidden'], ['::ffff:a9fe:a9fe', 'forbidden'], ['64:ff9b::a9fe:a9fe', 'forbidden'], ['2002:c0a8:101::', 'forbidden'],
    // Issue 23: forms that embed 127.0.0.1 another way (SIIT translated, local-use NAT64, ISATAP).
    ['::ffff:0:7f00:1', 'forbidden'], ['::ffff:0:127.0.0.1', 'forbidden'], ['64:ff9b:1::7f00:1', 'forbidden'], ['64:ff9b:1:0:0:0:7f00:1', 'forbidden'],
    ['64:ff9b:1::808:808', 'forbidden'], ['2606:4700::5efe:7f00:1', 'forbidden'], ['2606:4700::200:5efe:7f00:1', 'forbidden'], ['::ffff:0:808:808', 'public'],
    ['not-an-address', 'forbidden'],
  ])('%s is %s', (address, verdict) => {
    expect(classifyAddress(address)).toBe(verdict);
  });

  const resolveTo = (addresses: string[]) => async () => addresses;
  it('every address of a host must be public, and the URL https without credentials', async () => {
    const policy = (addresses: string[], allowLoopback = false) => ({ allowLoopback, resolve: resolveTo(addresses) });
    await expect(checkCallbackUrl('https://hooks.example.com/x', policy(['93.184.216.34']))).resolves.toMatchObject({ addresses: ['93.184.216.34'] });
    await expect(checkCallbackUrl('https://hooks.example.com/x', policy(['93.184.216.34', '10.0.0.1']))).rejects.toMatchObject({ param: 'callbackUrl' });
    await expect(checkCallbackUrl('https://hooks.example.com/x', policy([]))).rejects.toMatchObject({ subCode: 'callback_url_unresolvable' });
    await expect(checkCallbackUrl('http://hooks.example.com/x', policy(['93.184.216.34']))).rejects.toMatchObject({ param: 'callbackUrl' });
    await expect(checkCallbackUrl('https://u:p@hooks.example.com/x', policy(['93.184.216.34']))).rejects.toMatchObject({ param: 'callbackUrl' });
    await expect(checkCallbackUrl('https://0x7f.1/x', policy([]))).rejects.toMatchObject({ param: 'callbackUrl' });
    for (const host of ['[::ffff:0:7f00:1]', '[64:ff9b:1::7f00:1]', '[::ffff:0:127.0.0.1]']) {
      await expect(checkCallbackUrl(`https://${host}/x`, policy([]))).rejects.toMatchObject({ param: 'callbackUrl', subCode: 'callback_url_not_allowed' });
    }
    await expect(checkCallbackUrl('http://127.0.0.1:9/x', policy([], true))).resolves.toMatchObject({ addresses: ['127.0.0.1'] });
    await expect(checkCallbackUrl('http://10.0.0.1/x', policy([], true))).rejects.toMatchObject({ param: 'callbackUrl' });
    await expect(checkCallbackUrl(['https://a.example/', 'https://b.example/'], policy(['93.184.216.34']))).rejects.toMatchObject({ subCode: 'invalid_callback_url' });
  });
});

describe('Prefer: wait', () => {
  it.each([
    ['wait=10', 10], ['respond-async, wait=5', 5], ['wait=100', 30], ['WAIT = 3', 3], ['wait="4"', 4], ['wait=5; foo=bar', 5],
    ['wait=0', null], ['wait=-1', null], ['wait=soon', null], ['return=minimal', null], [undefined, null],
  ])('%s -> %s', (header, seconds) => {
    expect(preferredWait(header)).toBe(seconds);
  });
});
