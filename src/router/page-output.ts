import type { z } from 'zod';
import { isPageData, serializedData } from '../domain/caching/page-memo.js';

type EnvelopeSchema = z.ZodObject<{ data: z.ZodType; meta: z.ZodType }>;

/** Answers settle() built in production (router/billing/envelope.ts): their page, once validated, is not validated again. */
const trustedAnswers = new WeakSet<object>();

export function trustValidatedPage(answer: object): void {
  trustedAnswers.add(answer);
}

/**
 * Output validation of an operation whose data may be a memoized page (issue 15). A page is
 * frozen and shared by every call that hits it, so validating it once is validating it for all:
 * in production the page's data is checked on its first two calls, and from then on neither
 * it nor the per-request `meta` settle() builds around it (see metaKept below), which took most
 * of the zod time of a cached search. In tests and
 * development every answer is validated in full, as before. Either way the answer keeps the
 * page's own `data` (so the faces can send its JSON text made once) unless the schema changed
 * something in it; then the schema's output is sent.
 *
 * The schema's own `parse` is replaced (tRPC binds it when the procedure is built): the OpenAPI
 * document needs this very instance, with its id. Other values parse exactly as before.
 */
export function rememberValidPages<S extends EnvelopeSchema>(schema: S): S {
  if (wrapped.has(schema)) return schema;
  wrapped.add(schema);
  const full = schema.parse.bind(schema);
  const meta = schema.shape.meta;
  const validated = new WeakSet<object>();
  const seenOnce = new WeakSet<object>();
  /** Pages whose trusted answers go out unparsed: their data and a meta were kept as is by the schema. */
  const metaKept = new WeakSet<object>();
  (schema as { parse: (value: unknown, params?: z.core.ParseContext<z.core.$ZodIssue>) => unknown }).parse = (value: unknown, params?: z.core.ParseContext<z.core.$ZodIssue>) => {
    const answer = value as { data?: unknown; meta?: unknown } | null;
    const data = answer !== null && typeof answer === 'object' ? answer.data : undefined;
    if (!isPageData(data)) return full(value, params);
    if (trustedAnswers.has(answer!)) {
      if (metaKept.has(data)) return answer;
      if (validated.has(data)) return { ...answer, meta: meta.parse(answer!.meta, params) };
    }
    const out = full(value, params) as { data: unknown; meta: unknown };
    // A page seen for the first time is checked like any answer; from its second call on, it is
    // kept as is when the schema left it unchanged (compared as text, once).
    if (!seenOnce.has(data)) {
      seenOnce.add(data);
      return out;
    }
    if (JSON.stringify(out.data) !== serializedData(data)) return out;
    validated.add(data);
    // The meta settle() builds for this page differs between calls only in the request id (ours)
    // and the unknown-parameter warning (a string): once the schema left one unchanged, a trusted
    // answer of this page is sent as built, and its meta is not parsed again.
    if (trustedAnswers.has(answer!) && JSON.stringify(out.meta) === JSON.stringify(answer!.meta)) metaKept.add(data);
    return { ...out, data };
  };
  return schema;
}

const wrapped = new WeakSet<object>();
