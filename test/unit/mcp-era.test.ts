import { isLegacyRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isModernRequest } from '../../src/facades/mcp/era.js';

/**
 * Our cheap era check (which reads the parsed body and one header) against the SDK 2.x's own
 * classification, on the requests each era sends: the two must route every one the same way.
 */
const meta = (version: string) => ({ _meta: { 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } });
const cases: [string, Record<string, string>, unknown][] = [
  ['legacy initialize', {}, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }],
  ['legacy tools/list after initialize', { 'mcp-protocol-version': '2025-11-25' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
  ['legacy tools/call with a progress token', { 'mcp-protocol-version': '2025-06-18' }, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_job', arguments: {}, _meta: { progressToken: 1 } } }],
  ['legacy initialized notification', { 'mcp-protocol-version': '2025-11-25' }, { jsonrpc: '2.0', method: 'notifications/initialized' }],
  ['legacy batch', {}, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 2, method: 'ping' }]],
  ['claim-less request with an unknown version header', { 'mcp-protocol-version': '1900-01-01' }, { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
  ['modern server/discover', { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' }, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: meta('2026-07-28') }],
  ['modern tools/call', { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_job' }, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_job', arguments: {}, ...meta('2026-07-28') } }],
  ['modern claim of an unsupported version', { 'mcp-protocol-version': '1900-01-01', 'mcp-method': 'tools/list' }, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: meta('1900-01-01') }],
  ['modern header without the envelope', { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }, { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
  ['modern claim without headers', {}, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: meta('2026-07-28') }],
];

describe('MCP era of a request', () => {
  it.each(cases)('%s: the same era as the SDK decides', async (_name, headers, body) => {
    const request = new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
    const sdkSaysLegacy = await isLegacyRequest(request, body);
    expect(isModernRequest(headers['mcp-protocol-version'], body)).toBe(!sdkSaysLegacy);
  });
});
