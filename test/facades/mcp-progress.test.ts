import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** Issue 16 item 4: a slow call with a progressToken answers over SSE, progress then the result inline. */
let app: TestApp;
let short: TestApp;
beforeAll(async () => {
  [app, short] = await Promise.all([startTestApp({ worker: true }), startTestApp({ worker: true, config: { mcpProgressWaitSeconds: 0 } })]);
});
afterAll(async () => {
  await Promise.all([app.close(), short.close()]);
});

async function connect(target: TestApp, key: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${target.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
}

type Result = { structuredContent: { data: unknown; meta: { creditsCharged: number } } };
const slow = { location: 'sandbox:async', platforms: ['airbnb', 'vrbo'], limit: 3 };

describe('MCP progress', () => {
  it('sends notifications/progress and then the result itself, instead of a job handle', async () => {
    const client = await connect(app, (await app.newKey('sandbox')).key);
    const seen: { progress: number; total?: number }[] = [];
    const result = (await client.callTool({ name: 'search_stays', arguments: slow }, undefined, { onprogress: (p) => seen.push(p), timeout: 60_000 })) as unknown as Result;
    expect(Array.isArray(result.structuredContent.data)).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.at(-1)).toMatchObject({ progress: 2, total: 2 });

    // Without a token the same call answers the job handle, as before.
    const plain = (await client.callTool({ name: 'search_stays', arguments: { ...slow, limit: 4 } })) as unknown as Result;
    expect(plain.structuredContent.data).toMatchObject({ jobId: expect.stringMatching(/^job_/) });
    await client.close();
  });

  it('reports each leg of a call answered at once (no job), then the result', async () => {
    const client = await connect(app, (await app.newKey('sandbox')).key);
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const args = { location: 'Paris', platforms: ['airbnb', 'booking', 'vrbo'], limit: 3 };
    const result = (await client.callTool({ name: 'search_stays', arguments: args }, undefined, { onprogress: (p) => seen.push(p) })) as unknown as Result;
    expect(Array.isArray(result.structuredContent.data)).toBe(true);
    expect(seen.map((p) => [p.progress, p.total])).toEqual([[1, 3], [2, 3], [3, 3]]);
    expect(seen.map((p) => p.message?.split(':')[0]).sort()).toEqual(['airbnb', 'booking', 'vrbo']);

    // A batch on one platform has a leg per listing.
    const batch: { progress: number; total?: number }[] = [];
    const calendars = { platform: 'airbnb', listingIds: ['40000012', '40000013', '40000014'], startDate: '2031-05-01', endDate: '2031-05-07' };
    await client.callTool({ name: 'check_availability', arguments: calendars }, undefined, { onprogress: (p) => batch.push(p) });
    expect(batch.map((p) => [p.progress, p.total])).toEqual([[1, 3], [2, 3], [3, 3]]);
    await client.close();
  });

  it('falls back to the job handle past the configured bound', async () => {
    const client = await connect(short, (await short.newKey('sandbox')).key);
    const seen: unknown[] = [];
    const result = (await client.callTool({ name: 'search_stays', arguments: slow }, undefined, { onprogress: (p) => seen.push(p) })) as unknown as Result;
    expect(result.structuredContent.data).toMatchObject({ jobId: expect.stringMatching(/^job_/) });
    expect(seen).toHaveLength(1);
    await client.close();
  });
});
