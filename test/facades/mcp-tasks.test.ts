import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** Issue 16 item 4: MCP Tasks (experimental in SDK 1.32.2) over our jobs, through the SDK client. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ worker: true });
});
afterAll(async () => {
  await app.close();
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
}

type Message = { type: string; task?: { taskId: string; status: string }; result?: { structuredContent?: { data: unknown; meta: { creditsCharged: number } } }; error?: Error };

async function streamOf(client: Client, args: Record<string, unknown>): Promise<Message[]> {
  const seen: Message[] = [];
  for await (const m of client.experimental.tasks.callToolStream({ name: 'search_stays', arguments: args }, undefined, { task: { ttl: 60_000 }, timeout: 30_000 })) seen.push(m as Message);
  return seen;
}

describe('MCP tasks', () => {
  it('declares task support for the data tools, not for get_job', async () => {
    const client = await connect((await app.newKey('sandbox')).key);
    expect(client.getServerCapabilities()?.tasks).toEqual({ requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport ?? 'forbidden']));
    expect(support).toMatchObject({ search_stays: 'optional', get_price: 'optional', compare_prices: 'optional', get_job: 'forbidden' });
    await client.close();
  });

  it('runs a task-augmented call as a job, even one that would answer at once, and answers its result', async () => {
    const client = await connect((await app.newKey('sandbox')).key);
    const seen = await streamOf(client, { location: 'Paris', platforms: ['airbnb', 'vrbo'], limit: 3 });
    expect(seen[0]).toMatchObject({ type: 'taskCreated', task: { taskId: expect.stringMatching(/^job_/), status: 'working' } });
    const last = seen.at(-1)!;
    expect(last.type).toBe('result');
    expect(Array.isArray(last.result!.structuredContent!.data)).toBe(true);
    expect(last.result!.structuredContent!.data).toHaveLength(3);

    // The task is the job: get_job sees the same result, and tasks/get its end.
    const taskId = seen[0]!.task!.taskId;
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'completed', ttl: 86_400_000 });
    const job = (await client.callTool({ name: 'get_job', arguments: { jobId: taskId } })) as unknown as { structuredContent: { data: { status: string; result: unknown } } };
    expect(job.structuredContent.data.status).toBe('completed');
    expect(job.structuredContent.data.result).toEqual(last.result!.structuredContent!.data);
    await client.close();
  });

  it('keeps tasks to the account that made them, and cannot cancel one', async () => {
    const owner = await connect((await app.newKey('sandbox')).key);
    const other = await connect((await app.newKey('sandbox')).key);
    const seen = await streamOf(owner, { location: 'Lisbon', platforms: ['airbnb'], limit: 2 });
    const taskId = seen[0]!.task!.taskId;
    await expect(other.experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i);
    await Promise.all([owner.close(), other.close()]);
  });

  it('cannot cancel a task: its job runs to the end, and its result is still there', async () => {
    const client = await connect((await app.newKey('sandbox')).key);
    const stream = client.experimental.tasks.callToolStream({ name: 'search_stays', arguments: { location: 'sandbox:async', platforms: ['vrbo'], limit: 2 } }, undefined, { task: {}, timeout: 30_000 });
    const created = (await stream.next()).value as Message;
    await stream.return(undefined);
    const taskId = created.task!.taskId;
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/cannot be cancelled/);
    const result = (await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, { timeout: 30_000 })) as Message['result'];
    expect(Array.isArray(result!.structuredContent!.data)).toBe(true);
    await client.close();
  });

  it('answers an odd task id as not found, never with the database error', async () => {
    const client = await connect((await app.newKey('sandbox')).key);
    for (const taskId of ['a\u0000b', 'job_' + '0'.repeat(26), 'x'.repeat(5000)]) {
      for (const call of [() => client.experimental.tasks.getTask(taskId), () => client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema), () => client.experimental.tasks.cancelTask(taskId)]) {
        const err = (await call().then(() => null, (e: Error) => e))!;
        expect(err).toBeInstanceOf(Error);
        expect(err.message).not.toMatch(/query|select|async_jobs|acct_/i);
      }
    }
    await client.close();
  });

  it('answers the result of a job started over REST POST /v1/search as a search_stays result', async () => {
    const { key } = await app.newKey('sandbox');
    const res = await fetch(`${app.baseUrl}/v1/search`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ location: 'sandbox:async', platforms: ['vrbo'], limit: 2 }),
    });
    expect(res.status).toBe(202);
    const { data } = (await res.json()) as { data: { jobId: string } };
    const client = await connect(key);
    const result = (await client.experimental.tasks.getTaskResult(data.jobId, CallToolResultSchema, { timeout: 30_000 })) as { isError?: boolean; content: { text: string }[]; structuredContent?: { data: unknown[] } };
    expect(result.isError).toBeFalsy();
    expect(result.content[0]!.text).toMatch(/^Search stays: 2 item\(s\)/);
    expect(result.structuredContent!.data).toHaveLength(2);
    await client.close();
  });

  it('refuses bad input at once, naming the field, without a task', async () => {
    const client = await connect((await app.newKey('sandbox')).key);
    const seen = await streamOf(client, { location: 'Paris', platforms: ['airbnb'], limit: 0 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.type).toBe('error');
    expect(seen[0]!.error!.message).toMatch(/limit/);
    await client.close();
  });
});
