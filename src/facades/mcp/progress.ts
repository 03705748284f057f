import type { SettledLeg } from '../../domain/operations/fan-out.js';
import type { JobLegEvent } from '../../domain/ports/jobs.js';
import type { Authed } from '../../router/context.js';
import { syncAnswerOf, waitForJob } from '../../router/retries/prefer-wait.js';

type Answer = { data: unknown; meta: Record<string, unknown> };
export type SendProgress = (progress: number, total: number, message: string) => Promise<void>;

function legLine(leg: Omit<SettledLeg, 'of'>, done: number, total: number): string {
  const what = leg.status === 'ok' || leg.status === 'empty' ? `${leg.status}, ${leg.count} item(s)${leg.cached ? ', cached' : ''}` : leg.status;
  return `${leg.platform}: ${what} (${done} of ${total} done).`;
}

/**
 * The progress notifications of one tool call. MCP requires `progress` to increase with every
 * notification, so a value not above the last one sent is dropped; notifications go out in the
 * order they were made, and `flushed()` resolves once all have, so they precede the result.
 */
export function createProgress(send: SendProgress) {
  let sent: number | null = null;
  let done = 0;
  let chain = Promise.resolve();
  function emit(progress: number, total: number, message: string): void {
    if (sent !== null && progress <= sent) return;
    sent = progress;
    // A client that went away loses its notifications; the call itself still answers (or is abandoned).
    chain = chain.then(() => send(progress, Math.max(total, progress), message)).catch(() => {});
  }
  return {
    emit,
    /** A leg of a call this process runs itself (a synchronous fan-out): one notification per leg. */
    onLeg(leg: SettledLeg): void {
      done += 1;
      emit(done, Math.max(leg.of, done), legLine(leg, done, Math.max(leg.of, done)));
    },
    flushed: () => chain,
    /** The last progress value sent (0 before any). */
    sent: () => sent ?? 0,
  };
}
export type Progress = ReturnType<typeof createProgress>;

/**
 * Issue 16 item 4: a tool call sent with a progressToken that went async waits for its job
 * inline, up to `mcpProgressWaitSeconds`, over the POST's SSE stream: a notification when the job
 * is accepted (0 of the platforms asked), one per platform leg as the worker finishes it, then the
 * result itself. Past the bound it answers the job handle, as without a token. Stateless: the
 * worker announces legs and the job's end to every process, so any process can hold the stream.
 */
export async function waitInline(ctx: Authed, accepted: Answer, progress: Progress): Promise<{ answer: Answer; inline: boolean }> {
  const job = accepted.data as { jobId: string };
  const total = (accepted.meta.platforms as unknown[] | undefined)?.length ?? 1;
  const bound = ctx.deps.config.mcpProgressWaitSeconds;
  progress.emit(0, total, `Accepted as job ${job.jobId}; waiting up to ${bound} s for the result.`);
  // `done` counts the legs before this one too, so legs finished before we listened still count.
  // A batch (availability of several listings) has a leg per listing: the worker says how many.
  const onLeg = (leg: JobLegEvent) => {
    const of = Math.max(total, leg.of, leg.done);
    progress.emit(leg.done, of, legLine(leg, leg.done, of));
  };
  const record = bound > 0 ? await waitForJob(ctx, job.jobId, bound, onLeg) : null;
  const result = record ? syncAnswerOf(ctx, record) : null;
  if (!result) return { answer: accepted, inline: false };
  // Only heard when some leg was not (progress must increase): the result itself says the job ended.
  progress.emit(Math.max(total, progress.sent()), Math.max(total, progress.sent()), `Job ${job.jobId} completed.`);
  return { answer: result, inline: true };
}
