import { and, eq, lte, sql } from 'drizzle-orm';
import type { ClaimOutcome, IdempotencyStore, StoredAnswer } from '../../../domain/ports/retries.js';
import type { Db } from '../db.js';
import { postFencedEntry } from '../billing/ledger.js';
import { idempotencyKeys } from '../schema.js';

/** Thrown inside a transaction to roll it back with a reason. */
class Abort extends Error {
  constructor(readonly reason: 'unaffordable' | 'duplicate' | 'lost') {
    super(reason);
  }
}

/** Idempotency-Key rows in PostgreSQL; the answer and the ledger row commit together. */
export function createPgIdempotencyStore(db: Db): IdempotencyStore {
  return {
    async claim(r) {
      // Two concurrent first requests meet at the primary key: one inserts, the other reads its row.
      // A row may vanish between the two statements (its request failed and released it): try again.
      for (let i = 0; i < 3; i++) {
        const { rows } = await db.execute<{ request_id: string }>(sql`
          insert into idempotency_keys (account_id, key, fingerprint, status, request_id, locked_at, expires_at)
          values (${r.accountId}, ${r.key}, ${r.fingerprint}, 'running', ${r.requestId}, ${r.now.toISOString()}::timestamptz, ${r.expiresAt.toISOString()}::timestamptz)
          on conflict (account_id, key) do update
            set fingerprint = excluded.fingerprint, status = 'running', request_id = excluded.request_id, response_status = null,
                response_headers = null, response_body = null, locked_at = excluded.locked_at, expires_at = excluded.expires_at
            where idempotency_keys.expires_at <= ${r.now.toISOString()}::timestamptz
               or (idempotency_keys.status = 'running' and idempotency_keys.fingerprint = excluded.fingerprint
                   and idempotency_keys.locked_at < ${r.staleBefore.toISOString()}::timestamptz)
          returning request_id`);
        if (rows[0]?.request_id === r.requestId) return { outcome: 'claimed' };
        const [row] = await db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.accountId, r.accountId), eq(idempotencyKeys.key, r.key)));
        if (!row) continue;
        if (row.fingerprint !== r.fingerprint) return { outcome: 'reused' };
        if (row.status !== 'done') return { outcome: 'in_use' };
        const answer: StoredAnswer = { status: row.responseStatus ?? 200, headers: row.responseHeaders ?? {}, body: row.responseBody };
        return { outcome: 'replay', answer } satisfies ClaimOutcome;
      }
      return { outcome: 'in_use' };
    },

    async complete(claim, answer, charge) {
      try {
        await db.transaction(async (tx) => {
          if (charge) {
            // The claim's token (the request id that holds the key, still running) is checked by
            // the statement that posts the debit, under the row lock it takes: a request whose
            // claim a retry took over (its process frozen past the lease) never charges.
            const fence = sql`select 1 from idempotency_keys where account_id = ${claim.accountId} and key = ${claim.key}
              and request_id = ${claim.requestId} and status = 'running' for update`;
            const posted = await postFencedEntry(tx, charge, fence);
            if (posted === 'fenced_out') throw new Abort('lost');
            if (!posted) throw new Abort('unaffordable');
            if (posted.duplicate) throw new Abort('duplicate');
          }
          const stored = await tx
            .update(idempotencyKeys)
            .set({ status: 'done', responseStatus: answer.status, responseHeaders: answer.headers, responseBody: answer.body })
            .where(and(eq(idempotencyKeys.accountId, claim.accountId), eq(idempotencyKeys.key, claim.key), eq(idempotencyKeys.requestId, claim.requestId), eq(idempotencyKeys.status, 'running')))
            .returning({ key: idempotencyKeys.key });
          if (stored.length === 0) throw new Abort('lost');
        });
        return 'stored';
      } catch (err) {
        if (err instanceof Abort) return err.reason;
        throw err;
      }
    },

    async release(claim) {
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.accountId, claim.accountId), eq(idempotencyKeys.key, claim.key), eq(idempotencyKeys.requestId, claim.requestId), eq(idempotencyKeys.status, 'running')));
    },

    async deleteExpired(now) {
      const gone = await db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now)).returning({ key: idempotencyKeys.key });
      return gone.length;
    },
  };
}
