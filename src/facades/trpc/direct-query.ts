import type { IncomingMessage, ServerResponse } from 'node:http';
import { getTRPCErrorFromUnknown, type TRPCError } from '@trpc/server';
import { serializedData, isPageData } from '../../domain/caching/page-memo.js';
import { appRouter } from '../../router/app-router.js';
import type { Context } from '../../router/context.js';
import { proceduresOf, trpcErrorAnswer } from '../../router/trpc-internals.js';

const PROCEDURES = proceduresOf(appRouter);

/**
 * The input of a plain GET query as tRPC's adapter reads it (`?input=` JSON, none when empty), or
 * null when the adapter itself should answer: a batch, a streaming accept, input it cannot parse.
 */
export function plainQueryInput(req: IncomingMessage): { input: unknown } | null {
  // Anything the adapter treats specially (streaming accepts, a content type on a GET) is its to answer.
  if (req.method !== 'GET' || req.headers['trpc-accept'] !== undefined || req.headers['content-type'] !== undefined) return null;
  if (req.headers.accept?.includes('application/jsonl')) return null;
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  if (params.has('batch')) return null;
  const raw = params.get('input');
  if (!raw) return { input: undefined };
  try {
    return { input: JSON.parse(raw) as unknown };
  } catch {
    return null;
  }
}

/** `{"result":{"data":…}}`, with a memoized page's JSON text spliced in rather than serialized again. */
export function resultBody(data: unknown): string {
  const page = data !== null && typeof data === 'object' ? (data as { data?: unknown }).data : undefined;
  if (!isPageData(page)) return JSON.stringify({ result: { data } });
  const text = serializedData(page)!;
  // A key no answer carries, so the one place to splice is found as text.
  const body = JSON.stringify({ result: { data: { ...(data as object), data: PLACE } } });
  const at = body.indexOf(PLACE_JSON);
  return `${body.slice(0, at)}${text}${body.slice(at + PLACE_JSON.length)}`;
}
const PLACE = '\u0000memoized-page\u0000';
const PLACE_JSON = JSON.stringify(PLACE);

/**
 * A plain `/trpc` GET query answered as tRPC's node adapter answers it (same status, headers and
 * body), without its per-request machinery (a fetch Request, its response stream) and with a
 * memoized page's data written as the text made once, as the REST face does (issue 15). Batches,
 * streams, mutations and unreadable input still go through the adapter.
 */
export async function answerPlainQuery(
  res: ServerResponse,
  name: string,
  input: unknown,
  ctx: Context,
  hooks: { settle: () => void; onError: (error: TRPCError) => void },
): Promise<void> {
  let status = 200;
  let body: string;
  try {
    body = resultBody(await PROCEDURES.get(name)!.call(ctx, input));
  } catch (cause) {
    const error = getTRPCErrorFromUnknown(cause);
    hooks.onError(error);
    // Formatted with this call's context, so the error body carries its request id: built once.
    const answer = trpcErrorAnswer(appRouter, { ctx, error, input, path: name, type: 'query' });
    status = answer.status;
    body = JSON.stringify(answer.body);
  }
  hooks.settle();
  if (res.destroyed) return;
  res.statusCode = status;
  res.setHeader('vary', 'trpc-accept, accept');
  res.setHeader('content-type', 'application/json');
  for (const [key, value] of Object.entries(ctx.res.headers)) res.setHeader(key, value);
  res.end(body);
}
