import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { JsonAnswerTransport } from '../../src/facades/mcp/json-answer-transport.js';

/**
 * The shared legacy server answers many clients' calls at once through one JsonAnswerTransport:
 * each answer goes to its own response with its own client's id, and a client that leaves has its
 * call aborted, as closing the SDK's per-request server aborted it.
 */
class FakeResponse extends EventEmitter {
  status = 0;
  headers: Record<string, unknown> = {};
  body = '';
  ended = false;
  writeHead(status: number, headers: Record<string, unknown>) {
    this.status = status;
    this.headers = headers;
  }
  write(chunk: Buffer | string) {
    this.body += chunk.toString();
  }
  end(chunk?: Buffer | string) {
    if (chunk !== undefined) this.write(chunk);
    this.ended = true;
    this.emit('finish');
  }
  cork() {}
  uncork() {}
}

async function sharedServer(handler: (name: string, signal: AbortSignal) => Promise<string>) {
  const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => ({ content: [{ type: 'text' as const, text: await handler(request.params.name, extra.signal) }] }));
  const transport = new JsonAnswerTransport();
  await transport.serve(server);
  return transport;
}

const call = (id: string | number, name: string) => ({ jsonrpc: '2.0' as const, id, method: 'tools/call', params: { name, arguments: {} } });
const finished = (res: FakeResponse) => new Promise((resolve) => res.once('finish', resolve));

describe('the shared legacy server transport', () => {
  it('answers concurrent calls with the same JSON-RPC id each to its own client, with its id', async () => {
    const release: Record<string, () => void> = {};
    const transport = await sharedServer((name) => new Promise((resolve) => (release[name] = () => resolve(`answer ${name}`))));
    const [a, b] = [new FakeResponse(), new FakeResponse()];
    transport.handle(a as unknown as ServerResponse, call(1, 'first'), {});
    transport.handle(b as unknown as ServerResponse, call(1, 'second'), {});
    await new Promise((resolve) => setImmediate(resolve));
    release.second!();
    await finished(b);
    release.first!();
    await finished(a);
    expect(JSON.parse(a.body)).toEqual({ result: { content: [{ type: 'text', text: 'answer first' }] }, jsonrpc: '2.0', id: 1 });
    expect(JSON.parse(b.body)).toEqual({ result: { content: [{ type: 'text', text: 'answer second' }] }, jsonrpc: '2.0', id: 1 });
    expect(a.headers).toEqual({ 'content-type': 'application/json', 'content-length': Buffer.byteLength(a.body) });
  });

  it('aborts the call of a client that leaves, and writes nothing to it', async () => {
    let aborted: unknown = null;
    const transport = await sharedServer(
      (_name, signal) =>
        new Promise((resolve) =>
          signal.addEventListener('abort', () => {
            aborted = signal.reason;
            resolve('too late');
          }),
        ),
    );
    const gone = new FakeResponse();
    transport.handle(gone as unknown as ServerResponse, call('x', 'slow'), {});
    await new Promise((resolve) => setImmediate(resolve));
    gone.emit('close');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(aborted).toBeInstanceOf(DOMException);
    expect((aborted as DOMException).name).toBe('AbortError');
    expect(gone.ended).toBe(false);
  });
});
