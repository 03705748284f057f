import { ServiceError } from '../../domain/errors.js';
import type { LedgerEntry } from '../../domain/ports/billing.js';
import type { Authed } from '../context.js';
import { ClientGone } from '../client-gone.js';

/**
 * Posts a call's charge before its answer leaves (design.md section 4). A request holding an
 * Idempotency-Key stores its answer in the same transaction as the ledger row, so a replay is
 * never billed and a crash never leaves a charge without the answer it paid for.
 */
export async function postCharge(ctx: Authed, credits: number, reason: string, answer: unknown, billed?: Pick<LedgerEntry, 'platforms' | 'status'>): Promise<void> {
  // A job's charge is posted by the worker in the transaction that stores its result.
  if (ctx.jobId) return;
  // Checked just before posting: a client that left is not billed. What remains is the window
  // between this check and the response reaching the socket (README, Reliability).
  if (credits > 0 && ctx.clientGone()) throw new ClientGone();
  const entry: LedgerEntry | null = credits > 0 ? { accountId: ctx.principal.accountId, entryKey: `req:${ctx.requestId}`, amount: -credits, reason, ...billed, keyId: ctx.principal.keyId, ...(ctx.res.hold ? { holdId: ctx.res.hold.id } : {}) } : null;
  const claim = ctx.idempotency;
  if (claim) {
    const outcome = await ctx.deps.idempotency.complete(claim, { status: 200, headers: {}, body: answer }, entry);
    if (outcome === 'stored') {
      claim.stored = true;
      ctx.res.hold = undefined; // the debit's statement deleted it
      return;
    }
    if (outcome === 'unaffordable') throw new ServiceError('credit_balance_too_low', `This call costs ${credits} credits; the balance is lower. Nothing was charged.`);
    if (outcome === 'duplicate') throw new Error(`ledger entry req:${ctx.requestId} was already posted`);
    // 'lost': a retry took the key over while this request was stalled (issue 23). Charging now
    // would bill the key twice: the retry answers (and pays) for it, this request charges nothing.
    ctx.idempotency = undefined;
    throw new ServiceError('idempotency_key_in_use', 'This request stalled and a retry with the same Idempotency-Key took it over. Nothing was charged for this one; retry to get the stored answer.', { param: 'Idempotency-Key', retryAfterSeconds: 1 });
  }
  if (!entry) return;
  const posted = await ctx.deps.ledger.post(entry);
  if (!posted) throw new ServiceError('credit_balance_too_low', `This call costs ${credits} credits; the balance is lower. Nothing was charged.`);
  // A request id is never reused; if its entry exists, this call was not paid for and gets no data.
  if (posted.duplicate) throw new Error(`ledger entry req:${ctx.requestId} was already posted`);
  ctx.res.hold = undefined; // the debit's statement deleted it
}
