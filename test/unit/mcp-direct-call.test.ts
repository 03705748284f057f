import fc from 'fast-check';
import type { ServerResponse } from 'node:http';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, JSONRPCMessageSchema, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { answerDirect, directCall } from '../../src/facades/mcp/direct-call.js';

/**
 * The direct path answers a call without the SDK's server only when the SDK would have taken it
 * as a JSON-RPC request and a valid tools/call: every message directCall takes must pass both of
 * the SDK's schemas (the pinned SDK's own), whatever else it carries.
 */
// Mostly the call agents send, each part now and then replaced by something else, so that about
// half the messages are taken and the rest are near misses.
const json = fc.jsonValue({ maxDepth: 2 });
const often = <T>(usual: fc.Arbitrary<T>, ...others: fc.Arbitrary<unknown>[]) => fc.oneof({ arbitrary: usual, weight: 12 }, ...others.map((arbitrary) => ({ arbitrary, weight: 1 })));
const id = often(fc.oneof(fc.integer(), fc.string()), fc.double(), fc.constantFrom(null, -0, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, 1.5), json);
const name = often(fc.constantFrom('search_stays', 'get_job', 'get_listing'), fc.constantFrom('no_such_tool', '__proto__', 'toString', ''), fc.string(), json);
const args = often(fc.dictionary(fc.string(), json, { maxKeys: 3 }), fc.constant(undefined), json);
const absentOr = (arbitrary: fc.Arbitrary<unknown>) => often(fc.constant(undefined), arbitrary);
const params = often(
  fc.record({ name, arguments: args, _meta: absentOr(json), task: absentOr(json), other: absentOr(json) }).map((p) => Object.fromEntries(Object.entries(p).filter(([k, v]) => v !== undefined || k === 'arguments'))),
  json,
);
const message = fc
  .record({ jsonrpc: often(fc.constant('2.0'), json), id, method: often(fc.constant('tools/call'), fc.constantFrom('tools/list', 'initialize'), json), params, result: absentOr(json), extra: absentOr(json) })
  .chain((m) => fc.subarray(['jsonrpc', 'id', 'method', 'params'], { minLength: 0 }).map((dropped) => Object.fromEntries(Object.entries(m).filter(([k, v]) => !(dropped.length < 2 && dropped.includes(k)) && (v !== undefined || k === 'params')))));

describe('directCall', () => {
  it('takes only messages the SDK parses as a request and as a valid tools/call', () => {
    let taken = 0;
    fc.assert(
      fc.property(message, (m) => {
        if (directCall(m) === null) return;
        taken++;
        const rpc = JSONRPCMessageSchema.safeParse(m);
        expect(rpc.success && 'id' in rpc.data && 'method' in rpc.data).toBe(true);
        expect(CallToolRequestSchema.safeParse(m).success).toBe(true);
      }),
      { numRuns: 3000 },
    );
    // The property is only worth its runs if many messages are taken.
    expect(taken).toBeGreaterThan(500);
  });

  it('takes the call agents send, with or without arguments, and gives it as it came', () => {
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_stays', arguments: { location: 'Lisbon' } } };
    expect(directCall(call)).toEqual({ id: 7, name: 'search_stays', args: { location: 'Lisbon' } });
    expect(directCall({ ...call, id: 'a', params: { name: 'get_job' } })).toEqual({ id: 'a', name: 'get_job', args: undefined });
    expect(directCall(JSON.parse('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_stays","arguments":{"__proto__":{}}}}'))).not.toBeNull();
  });

  it('leaves to the SDK every other shape', () => {
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_stays', arguments: {} } };
    for (const other of [
      { ...call, id: 1.5 },
      { ...call, id: null },
      { ...call, id: 2 ** 53 },
      { ...call, extra: 1 },
      { ...call, jsonrpc: '1.0' },
      { ...call, params: { ...call.params, _meta: {} } },
      { ...call, params: { ...call.params, task: {} } },
      { ...call, params: { name: 'no_such_tool', arguments: {} } },
      { ...call, params: { name: 'search_stays', arguments: [] } },
      { ...call, params: { name: 'search_stays', arguments: null } },
      { ...call, params: Object.assign(Object.create({ inherited: 1 }), call.params) },
      Object.assign(Object.create({ method: 'tools/call' }), { jsonrpc: '2.0', id: 1, params: call.params }),
      [call],
    ]) expect(directCall(other), JSON.stringify(other)).toBeNull();
  });

  it("answers a result or an error of the tool as the SDK's server does, byte for byte", async () => {
    // The SDK's server, with the same handler, over an in-memory transport: its answer's JSON text.
    const sdkAnswer = async (run: () => Promise<unknown>): Promise<string> => {
      const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
      server.setRequestHandler(CallToolRequestSchema, run as never);
      const [client, ours] = InMemoryTransport.createLinkedPair();
      const answered = new Promise<JSONRPCMessage>((resolve) => (client.onmessage = resolve));
      await server.connect(ours);
      await client.start();
      await client.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_stays', arguments: {} } });
      const text = JSON.stringify(await answered);
      await server.close();
      return text;
    };
    const directAnswer = async (run: () => Promise<unknown>): Promise<string> => {
      let body = '';
      const res = { destroyed: false, writeHead() {}, end: (b: Buffer | string) => void (body = b.toString()) } as unknown as ServerResponse;
      await answerDirect(res, { id: 3, name: 'search_stays', args: {} }, { aborted: false }, run);
      return body;
    };
    const runs: (() => Promise<unknown>)[] = [
      async () => ({ content: [{ type: 'text', text: 'ok' }], structuredContent: { data: [1], meta: { n: 1 } } }),
      async () => ({ isError: true, content: [{ type: 'text', text: '{"error":{}}' }], _meta: { error: { code: 'x' } } }),
      async () => ({ content: 'not a list' }), // a result the SDK refuses
      async () => Promise.reject(new McpError(-32602, 'Unknown tool: "x"', { hint: 1 })),
      async () => Promise.reject(new Error('boom')),
    ];
    for (const run of runs) expect(await directAnswer(run)).toBe(await sdkAnswer(run));
  });
});
