import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeHttpServer } from '../../src/app/shutdown.js';

/** On a stop signal: stop accepting, let requests in flight finish within the grace period, cut the rest. */
let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('closeHttpServer', () => {
  it('lets a request in flight finish with its answer, and refuses new connections', async () => {
    let finish: () => void = () => {};
    const url = await serve((_req, res) => void (finish = () => res.end('done')));
    const inFlight = fetch(url).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 100));
    const closed = closeHttpServer(server!, 60_000);
    await expect(fetch(url)).rejects.toThrow();
    finish();
    expect(await inFlight).toBe('done');
    await closed;
  });

  it('cuts a request still running when the grace period ends', async () => {
    const url = await serve(() => {}); // never answers
    const inFlight = fetch(url).then(() => 'answered', () => 'cut');
    await new Promise((r) => setTimeout(r, 100));
    await closeHttpServer(server!, 200);
    expect(await inFlight).toBe('cut');
  });
});
