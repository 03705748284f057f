import type { Principal } from '../../domain/service-ports.js';
import type { Context } from '../../router/context.js';
import { syncAnswerOf, waitForJob } from '../../router/middleware/prefer-wait.js';

type Answer = { data: unknown; meta: Record<string, unknown> };
export type SendProgress = (progress: number, total: number, message: string) => Promise<void>;

/**
 * Issue 16 item 4: a tool call sent with a progressToken that went async waits for its job
 * inline, up to `mcpProgressWaitSeconds`, over the POST's SSE stream: a progress notification
 * when the job is accepted and one when it ends, then the result itself. Past the bound it
 * answers the job handle, as without a token. Stateless: the job's end event reaches any process.
 */
export async function waitInline(ctx: Context & { principal: Principal }, accepted: Answer, send: SendProgress): Promise<{ answer: Answer; inline: boolean }> {
  const job = accepted.data as { jobId: string };
  const total = (accepted.meta.platforms as unknown[] | undefined)?.length ?? 1;
  const bound = ctx.deps.config.mcpProgressWaitSeconds;
  await send(0, total, `Accepted as job ${job.jobId}; waiting up to ${bound} s for the result.`);
  const record = bound > 0 ? await waitForJob(ctx, job.jobId, bound) : null;
  const result = record ? syncAnswerOf(ctx, record) : null;
  if (!result) return { answer: accepted, inline: false };
  await send(total, total, `Job ${job.jobId} completed.`);
  return { answer: result, inline: true };
}
